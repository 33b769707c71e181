/// Payload of `service.started`.
public struct ServiceStarted: Sendable, Equatable {
    /// weatherd's version.
    public var version: String
    /// The fsync mode in force (`always`, `batch`, `never`).
    public var fsync: String
    /// The process id, to match the event with a process in other logs.
    public var pid: Int64

    public init(version: String, fsync: String, pid: Int64) {
        self.version = version
        self.fsync = fsync
        self.pid = pid
    }

    public var json: JSONValue { .object(["version": .string(version), "fsync": .string(fsync), "pid": .int(pid)]) }

    public init(json: JSONValue) throws(FieldError) {
        let reader = try FieldReader(json, path: "data")
        self.init(version: try reader.string("version"), fsync: try reader.string("fsync"), pid: try reader.int("pid"))
    }
}

/// Payload of `service.stopped`.
public struct ServiceStopped: Sendable, Equatable {
    /// Why it stopped: `eof`, `signal`, `stdout_closed`.
    public var reason: String
    /// How long the process served, in milliseconds.
    public var uptimeMs: Int64

    public init(reason: String, uptimeMs: Int64) {
        self.reason = reason
        self.uptimeMs = uptimeMs
    }

    public var json: JSONValue { .object(["reason": .string(reason), "uptimeMs": .int(uptimeMs)]) }

    public init(json: JSONValue) throws(FieldError) {
        let reader = try FieldReader(json, path: "data")
        self.init(reason: try reader.string("reason"), uptimeMs: try reader.int("uptimeMs"))
    }
}

/// Payload of `log.recovered`: a torn tail was cut off at start-up.
public struct LogRecovered: Sendable, Equatable {
    /// The log file that was repaired (its name in the data dir).
    public var file: String
    /// The byte offset where the dropped tail began (the log's new length).
    public var offset: Int64
    /// How many bytes were dropped.
    public var droppedBytes: Int64
    /// The name of the copy of the dropped bytes, in the data dir.
    public var brokenCopy: String
    /// What was wrong with the tail (`no_newline`, `bad_json`, `bad_crc`, …).
    public var reason: String

    public init(file: String, offset: Int64, droppedBytes: Int64, brokenCopy: String, reason: String) {
        self.file = file
        self.offset = offset
        self.droppedBytes = droppedBytes
        self.brokenCopy = brokenCopy
        self.reason = reason
    }

    public var json: JSONValue {
        .object([
            "file": .string(file), "offset": .int(offset), "droppedBytes": .int(droppedBytes),
            "brokenCopy": .string(brokenCopy), "reason": .string(reason),
        ])
    }

    public init(json: JSONValue) throws(FieldError) {
        let reader = try FieldReader(json, path: "data")
        self.init(
            file: try reader.string("file"), offset: try reader.int("offset"),
            droppedBytes: try reader.int("droppedBytes"), brokenCopy: try reader.string("brokenCopy"),
            reason: try reader.string("reason"))
    }
}
