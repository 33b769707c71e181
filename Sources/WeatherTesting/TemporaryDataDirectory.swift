import Foundation

/// A data dir path inside a fresh temporary directory, removed (with everything in it) when released.
///
/// The data dir itself is not created, so weatherd creates it as it would on a fresh machine.
package final class TemporaryDataDirectory: Sendable {
    /// The temporary directory holding the data dir.
    package let root: String
    /// The data dir's path.
    package let path: String

    /// Creates the temporary directory.
    package init(prefix: String = "weatherd-test") {
        let base = FileManager.default.temporaryDirectory.path
        root = "\(base)/\(prefix)-\(UUID().uuidString.prefix(8))"
        path = root + "/data"
        // Creating a directory in the temporary directory only fails when the machine is broken; say so loudly.
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        } catch {
            fatalError("cannot create \(root): \(error)")
        }
    }

    deinit {
        do { try FileManager.default.removeItem(atPath: root) } catch {}
    }

    /// The path of the log inside a data dir at `path`.
    package var logPath: String { path + "/events.jsonl" }

    /// The log's bytes (empty when it does not exist).
    package func logBytes() -> [UInt8] {
        (FileManager.default.contents(atPath: logPath)).map { Array($0) } ?? []
    }

    /// Replaces the log's bytes (creating the data dir when needed).
    package func writeLog(_ bytes: [UInt8]) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: logPath))
    }

    /// The names of the files in the directory.
    package func fileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }
}
