import WeatherDomain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `log-manifest.json` in the data dir: what compaction and retention did to the sealed segments, so that
/// readers can still verify what is left.
///
/// - `compacted`: for each rewritten segment, the chain before its first line and of its last line (the
///   links to the segments around it, which its stripped lines can no longer prove by themselves) and the
///   new file's length and CRC-32C.
/// - `truncated`: the last seq dropped by `--retain-audit` and the chain of that line, from which the first
///   remaining line continues.
///
/// The file ends in its own `crc`, like a snapshot, and is replaced atomically (temporary file, fsync,
/// rename, directory fsync). A missing manifest is an empty one: a log never compacted or truncated.
package struct LogManifest: Sendable, Equatable {
    /// The file's name in the data dir.
    package static let fileName = "log-manifest.json"
    static let format = "weatherd-log-manifest"
    static let version: Int64 = 1

    /// A segment rewritten by compaction.
    package struct Compaction: Sendable, Equatable {
        /// The segment's first and last seq.
        package var firstSeq: Int64
        package var lastSeq: Int64
        /// The chain of the line before the segment's first (the previous segment's last line).
        package var previousChain: UInt32
        /// The chain of the segment's last line, which the next segment continues.
        package var lastChain: UInt32
        /// The compacted file's length and CRC-32C of all its bytes.
        package var bytes: Int64
        package var crc: UInt32
        /// The length of the segment before compaction.
        package var originalBytes: Int64
        /// How many events lost their payload (over every compaction of this segment).
        package var strippedEvents: Int64
        package var compactedAt: Timestamp

        package init(
            firstSeq: Int64, lastSeq: Int64, previousChain: UInt32, lastChain: UInt32, bytes: Int64, crc: UInt32,
            originalBytes: Int64, strippedEvents: Int64, compactedAt: Timestamp
        ) {
            self.firstSeq = firstSeq
            self.lastSeq = lastSeq
            self.previousChain = previousChain
            self.lastChain = lastChain
            self.bytes = bytes
            self.crc = crc
            self.originalBytes = originalBytes
            self.strippedEvents = strippedEvents
            self.compactedAt = compactedAt
        }
    }

    /// Segments dropped from the start of the log by retention.
    package struct Truncation: Sendable, Equatable {
        /// The last seq dropped: the log now begins at `throughSeq + 1`.
        package var throughSeq: Int64
        /// The chain of that line.
        package var lastChain: UInt32
        package var truncatedAt: Timestamp

        package init(throughSeq: Int64, lastChain: UInt32, truncatedAt: Timestamp) {
            self.throughSeq = throughSeq
            self.lastChain = lastChain
            self.truncatedAt = truncatedAt
        }
    }

    package var truncated: Truncation?
    /// Compacted segments by their first seq.
    package var compacted: [Int64: Compaction]

    package init(truncated: Truncation? = nil, compacted: [Int64: Compaction] = [:]) {
        self.truncated = truncated
        self.compacted = compacted
    }

    /// The manifest's path in `directory`.
    package static func path(in directory: String) -> String { directory + "/" + fileName }

    private static func hex(_ value: UInt32) -> JSONValue { .string(CRC32C.hexString(value)) }

    private static func chain(_ value: JSONValue?, _ path: String) throws(FieldError) -> UInt32 {
        guard let parsed = value?.stringValue.flatMap(CRC32C.parseHex) else {
            throw FieldError(path: path, problem: "must be 8 lowercase hex digits")
        }
        return parsed
    }

    /// The file's bytes, newline included: canonical JSON whose last member is the `crc` of what precedes it.
    package var bytes: [UInt8] {
        var object: [String: JSONValue] = [
            "format": .string(Self.format), "version": .int(Self.version),
            "compacted": .array(
                compacted.values.sorted { $0.firstSeq < $1.firstSeq }.map { item in
                    .object([
                        "segment": .string(LogFiles.segmentName(item.firstSeq)), "firstSeq": .int(item.firstSeq),
                        "lastSeq": .int(item.lastSeq), "previousChain": Self.hex(item.previousChain),
                        "lastChain": Self.hex(item.lastChain), "bytes": .int(item.bytes), "crc": Self.hex(item.crc),
                        "originalBytes": .int(item.originalBytes), "strippedEvents": .int(item.strippedEvents),
                        "compactedAt": .string(item.compactedAt.description),
                    ])
                }),
        ]
        if let truncated {
            object["truncated"] = .object([
                "throughSeq": .int(truncated.throughSeq), "lastChain": Self.hex(truncated.lastChain),
                "truncatedAt": .string(truncated.truncatedAt.description),
            ])
        }
        var out = JSONValue.object(object).jsonBytes
        out.removeLast()  // the closing brace: the crc member goes before it
        let crc = CRC32C.checksum(out)
        out.append(contentsOf: #","crc":""#.utf8)
        out.append(contentsOf: CRC32C.hex(crc))
        out.append(contentsOf: "\"}\n".utf8)
        return out
    }

    /// Reads a manifest's bytes.
    ///
    /// - Throws: `FieldError` when the bytes are not a whole, intact manifest of this version.
    package init(bytes: [UInt8]) throws(FieldError) {
        let trailer = #","crc":"00000000"}"#.utf8.count + 1
        guard bytes.count > trailer, bytes.last == UInt8(ascii: "\n") else {
            throw FieldError(path: "manifest", problem: "is truncated")
        }
        let body = bytes.count - trailer
        let stated = bytes.withUnsafeBytes { CRC32C.parseHex($0, at: body + 8) }
        guard bytes[body..<(body + 8)].elementsEqual(#","crc":""#.utf8), let stated,
            stated == bytes.withUnsafeBytes({ CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[..<body])) })
        else { throw FieldError(path: "manifest", problem: "fails its crc") }
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes[..<(bytes.count - 1)], maxDepth: 8)
        } catch {
            throw FieldError(path: "manifest", problem: "is not JSON: \(error)")
        }
        let reader = try FieldReader(json, path: "manifest")
        guard try reader.string("format") == Self.format, try reader.int("version") == Self.version else {
            throw FieldError(path: "manifest", problem: "is not a version \(Self.version) \(Self.format)")
        }
        var compacted: [Int64: Compaction] = [:]
        for item in try reader.elements(
            "compacted",
            { item, path throws(FieldError) in
                let fields = try FieldReader(item, path: path)
                return Compaction(
                    firstSeq: try fields.int("firstSeq"), lastSeq: try fields.int("lastSeq"),
                    previousChain: try Self.chain(fields.members["previousChain"], path + ".previousChain"),
                    lastChain: try Self.chain(fields.members["lastChain"], path + ".lastChain"),
                    bytes: try fields.int("bytes"), crc: try Self.chain(fields.members["crc"], path + ".crc"),
                    originalBytes: try fields.int("originalBytes"), strippedEvents: try fields.int("strippedEvents"),
                    compactedAt: try fields.timestamp("compactedAt"))
            })
        {
            compacted[item.firstSeq] = item
        }
        self.compacted = compacted
        if let truncated = reader.members["truncated"] {
            let fields = try FieldReader(truncated, path: "manifest.truncated")
            self.truncated = Truncation(
                throughSeq: try fields.int("throughSeq"),
                lastChain: try Self.chain(fields.members["lastChain"], "manifest.truncated.lastChain"),
                truncatedAt: try fields.timestamp("truncatedAt"))
        }
    }

    /// Reads the manifest of the log in `directory` (an empty one when there is none).
    ///
    /// - Throws: `LogDamage` naming the file when it is damaged; `StorageError` when it cannot be read.
    package static func read(directory: String) throws -> LogManifest {
        let path = path(in: directory)
        guard let bytes = try LogFiles.readWholeFile(path) else { return LogManifest() }
        do throws(FieldError) {
            return try LogManifest(bytes: bytes)
        } catch {
            throw LogDamage(
                path: path, line: 1, seq: 0, offset: 0, problem: LineProblem(.badJSON, "the log's manifest \(error)"),
                kind: .manifest)
        }
    }

    /// Replaces the manifest in `directory` atomically: a crash leaves the old one or the new one.
    package func write(directory: String) throws(StorageError) {
        try LogFiles.replaceFile(Self.path(in: directory), with: bytes, mode: 0o600)
    }
}
