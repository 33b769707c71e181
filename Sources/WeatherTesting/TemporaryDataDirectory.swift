import Foundation

/// A fresh directory under the system's temporary directory, removed when this value is released.
public final class TemporaryDataDirectory: Sendable {
    /// The directory's path (it exists; the data dir itself may be a child of it).
    public let path: String

    /// Creates the directory.
    public init(prefix: String = "weatherd-test") {
        let base = FileManager.default.temporaryDirectory.path
        let path = "\(base)/\(prefix)-\(UUID().uuidString.prefix(8))"
        // Creating a directory in the temporary directory only fails when the machine is broken; say so loudly.
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            fatalError("cannot create \(path): \(error)")
        }
        self.path = path
    }

    deinit {
        do { try FileManager.default.removeItem(atPath: path) } catch {}
    }

    /// The path of the log inside a data dir at `path`.
    public var logPath: String { path + "/events.jsonl" }

    /// The log's bytes (empty when it does not exist).
    public func logBytes() -> [UInt8] {
        (FileManager.default.contents(atPath: logPath)).map { Array($0) } ?? []
    }

    /// Replaces the log's bytes.
    public func writeLog(_ bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: logPath))
    }

    /// The names of the files in the directory.
    public func fileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }
}
