/// Payload of `service.started`.
package struct ServiceStarted: Sendable, Equatable {
    /// weatherd's version.
    package var version: String
    /// The fsync mode in force (`always`, `batch`, `never`).
    package var fsync: String
    /// The process id, to match the event with a process in other logs.
    package var pid: Int64
    /// The machine's name (its host name), labelling the log in a fleet's trail (`weatherd events --nats`); nil
    /// in logs written before it was recorded, or when the machine has none.
    package var host: String?

    package init(version: String, fsync: String, pid: Int64, host: String? = nil) {
        self.version = version
        self.fsync = fsync
        self.pid = pid
        self.host = host
    }

    package var json: JSONValue {
        var members: [String: JSONValue] = ["version": .string(version), "fsync": .string(fsync), "pid": .int(pid)]
        if let host { members["host"] = .string(host) }
        return .object(members)
    }

    package init(json: JSONValue) throws(FieldError) {
        let reader = try FieldReader(json, path: "data")
        self.init(
            version: try reader.string("version"), fsync: try reader.string("fsync"), pid: try reader.int("pid"),
            host: try reader.optionalString("host"))
    }
}

/// Payload of `service.stopped`.
package struct ServiceStopped: Sendable, Equatable {
    /// Why it stopped: `eof`, `signal`, `stdout_closed`.
    package var reason: String
    /// How long the process served, in milliseconds.
    package var uptimeMs: Int64

    package init(reason: String, uptimeMs: Int64) {
        self.reason = reason
        self.uptimeMs = uptimeMs
    }

    package var json: JSONValue { .object(["reason": .string(reason), "uptimeMs": .int(uptimeMs)]) }

    package init(json: JSONValue) throws(FieldError) {
        let reader = try FieldReader(json, path: "data")
        self.init(reason: try reader.string("reason"), uptimeMs: try reader.int("uptimeMs"))
    }
}

/// Payload of `log.recovered`: a torn tail was cut off at start-up.
package struct LogRecovered: Sendable, Equatable {
    /// The log file that was repaired (its name in the data dir).
    package var file: String
    /// The byte offset where the dropped tail began (the log's new length).
    package var offset: Int64
    /// How many bytes were dropped.
    package var droppedBytes: Int64
    /// The name of the copy of the dropped bytes, in the data dir.
    package var brokenCopy: String
    /// What was wrong with the tail (`no_newline`, `bad_json`, `bad_crc`, …).
    package var reason: String

    package init(file: String, offset: Int64, droppedBytes: Int64, brokenCopy: String, reason: String) {
        self.file = file
        self.offset = offset
        self.droppedBytes = droppedBytes
        self.brokenCopy = brokenCopy
        self.reason = reason
    }

    package var json: JSONValue {
        .object([
            "file": .string(file), "offset": .int(offset), "droppedBytes": .int(droppedBytes),
            "brokenCopy": .string(brokenCopy), "reason": .string(reason),
        ])
    }

    package init(json: JSONValue) throws(FieldError) {
        let reader = try FieldReader(json, path: "data")
        self.init(
            file: try reader.string("file"), offset: try reader.int("offset"),
            droppedBytes: try reader.int("droppedBytes"), brokenCopy: try reader.string("brokenCopy"),
            reason: try reader.string("reason"))
    }
}

/// Payload of `log.truncated`: audit retention (`--retain-audit`) dropped whole sealed segments, the oldest
/// part of the log. The gap it leaves is deliberate: the log now begins at seq `throughSeq + 1`, its first line
/// chaining from `lastChain`, and the state those events built is kept in the data dir's `log-base.json`.
package struct LogTruncated: Sendable, Equatable {
    /// One dropped segment file.
    package struct Segment: Sendable, Equatable {
        /// Its name in the data dir (`events-<first seq, 20 digits>.jsonl`).
        package var file: String
        package var firstSeq: Int64
        package var lastSeq: Int64
        package var bytes: Int64
        /// The time of its newest event.
        package var lastAt: Timestamp

        package init(file: String, firstSeq: Int64, lastSeq: Int64, bytes: Int64, lastAt: Timestamp) {
            self.file = file
            self.firstSeq = firstSeq
            self.lastSeq = lastSeq
            self.bytes = bytes
            self.lastAt = lastAt
        }
    }

    /// The first seq dropped (the log's first seq before this truncation).
    package var fromSeq: Int64
    /// The last seq dropped.
    package var throughSeq: Int64
    /// The `chain` of the line `throughSeq`: the first line kept chains from it.
    package var lastChain: String
    /// The files dropped, oldest first.
    package var segments: [Segment]
    /// Every dropped event was written before this time (the time of the run minus `retainAudit`).
    package var cutoff: Timestamp
    /// The retention in force, as configured (`365d`).
    package var retainAudit: String
    /// The seq of the state stored in `log-base.json`, from which replay continues.
    package var baseSeq: Int64

    package init(
        fromSeq: Int64, throughSeq: Int64, lastChain: String, segments: [Segment], cutoff: Timestamp,
        retainAudit: String, baseSeq: Int64
    ) {
        self.fromSeq = fromSeq
        self.throughSeq = throughSeq
        self.lastChain = lastChain
        self.segments = segments
        self.cutoff = cutoff
        self.retainAudit = retainAudit
        self.baseSeq = baseSeq
    }

    package var json: JSONValue {
        .object([
            "fromSeq": .int(fromSeq), "throughSeq": .int(throughSeq), "lastChain": .string(lastChain),
            "segments": .array(
                segments.map {
                    .object([
                        "file": .string($0.file), "firstSeq": .int($0.firstSeq), "lastSeq": .int($0.lastSeq),
                        "bytes": .int($0.bytes), "lastAt": .string($0.lastAt.description),
                    ])
                }),
            "cutoff": .string(cutoff.description), "retainAudit": .string(retainAudit), "baseSeq": .int(baseSeq),
        ])
    }

    package init(json: JSONValue) throws(FieldError) {
        let reader = try FieldReader(json, path: "data")
        let segments = try reader.elements("segments") { item, path throws(FieldError) -> Segment in
            let segment = try FieldReader(item, path: path)
            return Segment(
                file: try segment.string("file"), firstSeq: try segment.int("firstSeq"),
                lastSeq: try segment.int("lastSeq"), bytes: try segment.int("bytes"),
                lastAt: try segment.timestamp("lastAt"))
        }
        self.init(
            fromSeq: try reader.int("fromSeq"), throughSeq: try reader.int("throughSeq"),
            lastChain: try reader.string("lastChain"), segments: segments, cutoff: try reader.timestamp("cutoff"),
            retainAudit: try reader.string("retainAudit"), baseSeq: try reader.int("baseSeq"))
    }
}
