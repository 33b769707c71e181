#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `log-id` in the data dir: the stable id of the data dir's log, which names it where it is shipped
/// (`<prefix>.<log id>` in NATS JetStream, `Nats-Msg-Id: <log id>-<seq>`).
///
/// Made once, when a data dir first ships (16 random lowercase hex digits), and kept: snapshots, compaction
/// and retention never touch the file. A restore from the stream writes the original's id, so the restored log
/// ships on under the same subject. The file is one line, written atomically.
package enum LogIdentity {
    /// The file's name in the data dir.
    package static let fileName = "log-id"

    /// Whether `id` can name a log: 1 to 64 ASCII letters, digits, `-` or `_` (one subject token, no wildcard).
    package static func isValid(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64
            && id.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
                    || $0 == "_"
            }
    }

    /// The log id of the data dir `directory`, if it has one.
    ///
    /// - Throws: `StorageError` when the file cannot be read or does not hold an id.
    package static func read(directory: String) throws(StorageError) -> String? {
        let path = directory + "/" + fileName
        guard let bytes = try LogFiles.readWholeFile(path) else { return nil }
        let id = String(decoding: bytes.filter { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        guard isValid(id) else {
            // Not an id (1 to 64 letters, digits, - or _): a damaged or foreign file.
            throw StorageError(operation: "read the log id of", path: path, errno: EINVAL)
        }
        return id
    }

    /// The data dir's log id, made and written now if it has none.
    ///
    /// - Throws: `StorageError` when it cannot be read or written.
    package static func ensure(directory: String) throws(StorageError) -> String {
        if let id = try read(directory: directory) { return id }
        var random = SystemRandomNumberGenerator()
        let hex = String(random.next() as UInt64, radix: 16)
        let id = String(repeating: "0", count: 16 - hex.count) + hex
        try write(id, directory: directory)
        return id
    }

    /// Writes `id` as the data dir's log id (atomically): made by `ensure`, or kept from the original by a
    /// restore.
    ///
    /// - Throws: `StorageError`.
    package static func write(_ id: String, directory: String) throws(StorageError) {
        try LogFiles.replaceFile(directory + "/" + fileName, with: Array((id + "\n").utf8), mode: 0o600)
    }
}
