import WeatherDomain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One step of dropping the oldest segments, in order; tests make each one fail to show a crash there leaves a
/// log that reads, verifies and replays to the same state.
package enum TruncationStep: String, Sendable, CaseIterable {
    /// The base state (a snapshot past the dropped seqs) replaces `log-base.json`.
    case writeBase
    /// The manifest, with `truncated` set to the last dropped seq and its chain, replaces the old one.
    case writeManifest
    /// The dropped segment files are removed.
    case removeSegments
    /// The directory is fsynced.
    case syncDirectory
}

/// Audit retention: drops whole sealed segments from the start of the log.
///
/// Only a prefix of the log can go, so that what stays is one unbroken chain: the sealed segments are taken
/// oldest first while every event in them is older than the cutoff, and never the active file. Before a file
/// is removed, the state their events built is stored as `log-base.json` (a snapshot file of a seq past the
/// dropped ones, which replay continues from), and the manifest's `truncated` records the last dropped seq
/// and its chain, from which the first kept line chains. The order makes every crash safe: before the
/// manifest names the gap, the segments are all there; after it, readers begin past the gap and ignore any
/// dropped file still present, which the next run removes.
package enum LogTruncation {
    /// The base state's file name in the data dir.
    package static let baseName = "log-base.json"

    package static func basePath(in directory: String) -> String { directory + "/" + baseName }

    /// A segment that may be dropped.
    package struct Segment: Sendable, Equatable {
        package var firstSeq: Int64
        package var lastSeq: Int64
        package var bytes: Int64
        /// The time of its newest event.
        package var lastAt: Timestamp
        /// The chain of its last line.
        package var lastChain: UInt32

        package var name: String { LogFiles.segmentName(firstSeq) }
    }

    /// The segments a run would drop, oldest first (never empty).
    package struct Plan: Sendable, Equatable {
        package var segments: [Segment]
        /// The first seq the log holds now.
        package var fromSeq: Int64 { segments[0].firstSeq }
        /// The last seq dropped.
        package var throughSeq: Int64 { segments[segments.count - 1].lastSeq }
        /// The chain of the line `throughSeq`.
        package var lastChain: UInt32 { segments[segments.count - 1].lastChain }
    }

    /// The oldest sealed segments every event of which was written before `cutoff`, or nil when there are none.
    ///
    /// Reads (and so verifies) those segments and the first line after them; nothing is changed.
    /// - Throws: `LogDamage` when they do not verify; `StorageError`.
    package static func plan(directory: String, cutoff: Timestamp) throws -> Plan? {
        let files = try LogFiles.list(directory: directory)
        let kept = files.segments.filter { $0 > (files.manifest.truncated?.throughSeq ?? 0) }
        let sealed = Set(kept)
        var segments: [Segment] = []
        var current: Segment?
        var young = false
        _ = try LogReader.read(directory: directory) { envelope, place in
            if place.file != current?.firstSeq {
                if let done = current { segments.append(done) }
                current = nil
                guard sealed.contains(place.file) else { return false }
                current = Segment(
                    firstSeq: place.file, lastSeq: envelope.seq, bytes: 0, lastAt: envelope.ts,
                    lastChain: envelope.chain)
            }
            if envelope.ts >= cutoff {
                young = true
                return false
            }
            current?.lastSeq = envelope.seq
            current?.lastChain = envelope.chain
            if let lastAt = current?.lastAt, envelope.ts > lastAt { current?.lastAt = envelope.ts }
            return true
        }
        if !young, let done = current, sealed.contains(done.firstSeq) { segments.append(done) }
        // Every segment collected was read to its end with every event older than the cutoff.
        for index in segments.indices {
            var status = stat()
            let path = files.path(ofSegment: segments[index].firstSeq)
            segments[index].bytes = lstat(path, &status) == 0 ? Int64(status.st_size) : 0
        }
        return segments.isEmpty ? nil : Plan(segments: segments)
    }

    /// Drops the sealed segments through `throughSeq`: stores `base`, records the gap in the manifest, removes
    /// the files and fsyncs the directory. Run again after a crash it finishes what is left (a manifest that
    /// already records `throughSeq` is not rewritten, nor is the base).
    ///
    /// - Parameters:
    ///   - throughSeq: the last seq to drop: the last seq of a sealed segment.
    ///   - lastChain: the chain of the line `throughSeq`.
    ///   - base: the bytes of a snapshot file of a seq after `throughSeq` (checked by the caller).
    ///   - beforeStep: called before each step (tests throw from it to simulate a crash).
    /// - Throws: `StorageError`; `LogDamage` for a damaged manifest.
    package static func drop(
        directory: String, throughSeq: Int64, lastChain: UInt32, base: [UInt8], now: Timestamp,
        beforeStep: (TruncationStep) throws -> Void = { _ in }
    ) throws {
        var files = try LogFiles.list(directory: directory)
        if (files.manifest.truncated?.throughSeq ?? 0) < throughSeq {
            try beforeStep(.writeBase)
            try LogFiles.replaceFile(basePath(in: directory), with: base, mode: 0o600)
            try beforeStep(.writeManifest)
            files.manifest.truncated = LogManifest.Truncation(
                throughSeq: throughSeq, lastChain: lastChain, truncatedAt: now)
            files.manifest.compacted = files.manifest.compacted.filter { $0.key > throughSeq }
            try files.manifest.write(directory: directory)
        }
        let through = files.manifest.truncated?.throughSeq ?? throughSeq
        let leftovers = files.segments.filter { $0 <= through }
        guard !leftovers.isEmpty else { return }
        try beforeStep(.removeSegments)
        for first in leftovers {
            let path = files.path(ofSegment: first)
            guard unlink(path) == 0 || errno == ENOENT else {
                throw StorageError(operation: "unlink", path: path, errno: errno)
            }
            unlink(path + ".compacting")
        }
        try beforeStep(.syncDirectory)
        try DataDirectory.syncDirectory(directory)
    }

    /// The bytes of `log-base.json`, or nil when there is none.
    package static func readBase(directory: String) throws(StorageError) -> [UInt8]? {
        try LogFiles.readWholeFile(basePath(in: directory))
    }
}
