import WeatherDomain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An event type whose payload compaction may strip once a later event of the same cache entry replaced it.
package struct PayloadRule: Sendable, Equatable {
    package var type: String
    package var version: Int
    /// The `data` members that are payload (removed, or reduced when `reducedMembers` names them); every other
    /// member is an audit fact (kept).
    package var payloadMembers: Set<String>
    /// The payload members kept in reduced form rather than removed: each names the fields kept of every
    /// element of its array, or of the member itself when it is an object (the other fields are removed). A
    /// member named here that is neither is removed wholly.
    package var reducedMembers: [String: [String]]
    /// The `data` members whose values together name the cache entry a later event replaces.
    package var entryMembers: [String]

    package init(
        type: String, version: Int, payloadMembers: Set<String>, reducedMembers: [String: [String]] = [:],
        entryMembers: [String]
    ) {
        self.type = type
        self.version = version
        self.payloadMembers = payloadMembers
        self.reducedMembers = reducedMembers
        self.entryMembers = entryMembers
    }
}

/// One step of compacting a segment, in order; tests make each one fail to show a crash there leaves a log
/// that reads and verifies.
package enum CompactionStep: String, Sendable, CaseIterable {
    /// The compacted copy is written beside the segment (`<segment>.compacting`).
    case writeCompacted
    /// It is given the segment's modification time and fsynced.
    case syncCompacted
    /// The manifest, with the new file's checksums and the segment's chain links, replaces the old one.
    case writeManifest
    /// The copy is renamed over the segment.
    case replaceSegment
    /// The directory is fsynced.
    case syncDirectory
}

/// Payload retention: rewrites sealed segments without the payloads that later events made redundant.
///
/// A line is stripped when all of these hold: it is in a sealed segment, and not that segment's first line
/// (which stays byte for byte, so a log shipper that knows files by their first line sees the same file);
/// its type has a `PayloadRule`; it was written before `cutoff`; and a later line (by seq, anywhere in the
/// log) names the same cache entry. A stripped line keeps `seq`, `ts`, `type`, `v`, `cause`, `corr`, its stated
/// `chain` and every member of `data` but the payload (a payload member the rule reduces stays, each element, or
/// the object itself, with only the fields the rule keeps), and gains
/// `"compacted":{"bytes":N,"members":[…],"reduced":[…],"sha256":"…"}` (the members removed wholly, those kept
/// reduced, only when there are any, and the original `data`'s length and digest); its `crc` is computed anew.
/// Every other line is copied byte for byte.
///
/// Each segment is replaced on its own (at most one at a time): the copy is written beside it and fsynced,
/// the manifest records the copy's length and CRC-32C and the chains that link it to its neighbours, then
/// the copy is renamed over the segment. A crash before the rename leaves the original, which the manifest's
/// links describe as well (the next run compacts it again); after it, the copy.
package enum SegmentCompactor {
    /// What one run did.
    package struct Report: Sendable, Equatable {
        package var segmentsCompacted = 0
        package var eventsStripped: Int64 = 0
        package var bytesBefore: Int64 = 0
        package var bytesAfter: Int64 = 0

        package init() {}

        package var json: JSONValue {
            .object([
                "segmentsCompacted": .int(Int64(segmentsCompacted)), "eventsStripped": .int(eventsStripped),
                "bytesBefore": .int(bytesBefore), "bytesAfter": .int(bytesAfter),
            ])
        }
    }

    /// Compacts the sealed segments of the log in `directory`.
    ///
    /// - Parameters:
    ///   - cutoff: only lines written before this time lose their payload.
    ///   - maxSegments: the most segments rewritten in this run.
    ///   - beforeStep: called before each step of each segment (tests throw from it to simulate a crash).
    /// - Throws: `LogDamage` when the log does not verify (nothing is changed then); `StorageError`.
    package static func compact(
        directory: String, rules: [PayloadRule], cutoff: Timestamp, now: Timestamp, maxSegments: Int = .max,
        beforeStep: (CompactionStep, String) throws -> Void = { _, _ in }
    ) throws -> Report {
        var files = try LogFiles.list(directory: directory)
        for first in files.segments { unlink(files.path(ofSegment: first) + ".compacting") }
        guard !files.segments.isEmpty else { return Report() }
        let plan = try plan(files, rules: rules, cutoff: cutoff)
        var report = Report()
        for first in files.segments where report.segmentsCompacted < maxSegments {
            guard let strip = plan.strip[first], !strip.isEmpty, let previousChain = plan.previousChain[first] else {
                continue
            }
            let (before, after, stripped) = try rewrite(
                &files, first: first, previousChain: previousChain, strip: strip, rules: rules, now: now,
                beforeStep: beforeStep)
            report.segmentsCompacted += 1
            report.eventsStripped += stripped
            report.bytesBefore += before
            report.bytesAfter += after
        }
        return report
    }

    private struct Plan {
        /// The seqs to strip, by segment.
        var strip: [Int64: Set<Int64>] = [:]
        /// The chain before each segment's first line.
        var previousChain: [Int64: UInt32] = [:]
    }

    private static func rule(for envelope: EventEnvelope, in rules: [PayloadRule]) -> PayloadRule? {
        rules.first { $0.type == envelope.type && $0.version == envelope.v }
    }

    /// Reads (and so verifies) the whole log once: the last seq of every cache entry, and the candidates.
    private static func plan(_ files: LogFiles, rules: [PayloadRule], cutoff: Timestamp) throws -> Plan {
        let sealed = Set(files.segments)
        var latest: [String: Int64] = [:]
        var candidates: [(seq: Int64, file: Int64, entry: String)] = []
        var plan = Plan()
        var lastChain: UInt32 = files.manifest.truncated?.lastChain ?? 0
        var currentFile: Int64 = 0
        _ = try LogReader.read(directory: files.directory) { envelope, place in
            if place.file != currentFile {
                currentFile = place.file
                plan.previousChain[place.file] = lastChain
            }
            lastChain = envelope.chain
            guard let rule = rule(for: envelope, in: rules) else { return true }
            let wanted = Set(rule.entryMembers).union(["compacted"])
            let members = try envelope.data.withUnsafeBytes { try JSONValue.parseMembers($0, keeping: wanted) }
            let entry =
                rule.type + "|" + rule.entryMembers.map { (members[$0] ?? .null).jsonString }.joined(separator: "|")
            latest[entry] = envelope.seq
            if sealed.contains(place.file), place.line > 1, members["compacted"] == nil, envelope.ts < cutoff {
                candidates.append((envelope.seq, place.file, entry))
            }
            return true
        }
        for candidate in candidates where (latest[candidate.entry] ?? 0) > candidate.seq {
            plan.strip[candidate.file, default: []].insert(candidate.seq)
        }
        return plan
    }

    /// The `data` of a stripped line: the original without its payload members (those the rule reduces kept in
    /// their reduced form), plus `compacted`.
    static func strippedData(_ data: [UInt8], rule: PayloadRule) throws -> [UInt8] {
        guard case .object(var members) = try JSONValue.parse(data) else { return data }
        var removed: [String] = []
        var reduced: [String] = []
        for name in rule.payloadMembers.sorted() {
            guard let value = members[name] else { continue }
            if let fields = rule.reducedMembers[name], case .array(let elements) = value {
                members[name] = .array(elements.map { reduce($0, keeping: fields) })
                reduced.append(name)
            } else if let fields = rule.reducedMembers[name], case .object = value {
                members[name] = reduce(value, keeping: fields)
                reduced.append(name)
            } else {
                members[name] = nil
                removed.append(name)
            }
        }
        var compacted: [String: JSONValue] = [
            "bytes": .int(Int64(data.count)), "members": .array(removed.map { .string($0) }),
            "sha256": .string(SHA256.hex(data)),
        ]
        if !reduced.isEmpty { compacted["reduced"] = .array(reduced.map { .string($0) }) }
        members["compacted"] = .object(compacted)
        return JSONValue.object(members).jsonBytes
    }

    /// An element of a reduced member: an object with only the `fields` it has of those named; any other
    /// element as it is.
    private static func reduce(_ element: JSONValue, keeping fields: [String]) -> JSONValue {
        guard case .object(let members) = element else { return element }
        return .object(members.filter { fields.contains($0.key) })
    }

    private static func rewrite(
        _ files: inout LogFiles, first: Int64, previousChain: UInt32, strip: Set<Int64>, rules: [PayloadRule],
        now: Timestamp, beforeStep: (CompactionStep, String) throws -> Void
    ) throws -> (before: Int64, after: Int64, stripped: Int64) {
        let path = files.path(ofSegment: first)
        guard let original = try LogFiles.readWholeFile(path) else {
            throw StorageError(operation: "open", path: path, errno: ENOENT)
        }
        let compacted = files.manifest.compacted[first]
        // Counts carry over from an earlier compaction only if it landed (its copy is what is there now).
        let landed = compacted.map { Int64(original.count) == $0.bytes } ?? false
        let (output, chain, lastSeq, stripped) = try strippedCopy(
            of: original, path: path, previousChain: previousChain, allowStripped: compacted != nil, strip: strip,
            rules: rules)
        let temporary = path + ".compacting"
        try beforeStep(.writeCompacted, path)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw StorageError(operation: "open", path: temporary, errno: errno) }
        defer { close(fd) }
        try PosixLogFile.writeAll(fd, output, path: temporary)
        try beforeStep(.syncCompacted, path)
        var status = stat()
        if lstat(path, &status) == 0 {
            // The segment's modification time, so tools that skip old files (a shipper's ignore_older) still do.
            var times = [status.st_atim, status.st_mtim]
            _ = futimens(fd, &times)
        }
        _ = fchmod(fd, 0o400)
        guard fsync(fd) == 0 else { throw StorageError(operation: "fsync", path: temporary, errno: errno) }
        try beforeStep(.writeManifest, path)
        var manifest = files.manifest
        manifest.compacted[first] = LogManifest.Compaction(
            firstSeq: first, lastSeq: lastSeq, previousChain: previousChain, lastChain: chain,
            bytes: Int64(output.count), crc: CRC32C.checksum(output),
            originalBytes: compacted?.originalBytes ?? Int64(original.count),
            strippedEvents: (landed ? compacted?.strippedEvents ?? 0 : 0) + stripped, compactedAt: now)
        try manifest.write(directory: files.directory)
        files.manifest = manifest
        try beforeStep(.replaceSegment, path)
        guard rename(temporary, path) == 0 else { throw StorageError(operation: "rename", path: path, errno: errno) }
        try beforeStep(.syncDirectory, path)
        try DataDirectory.syncDirectory(files.directory)
        return (Int64(original.count), Int64(output.count), stripped)
    }

    /// The segment `original` (read from `path`) with the payloads of the lines in `strip` removed and every
    /// other line copied byte for byte, each line verified on the way: the copy, the chain and seq of its last
    /// line, and how many lines lost their payload.
    private static func strippedCopy(
        of original: [UInt8], path: String, previousChain: UInt32, allowStripped: Bool, strip: Set<Int64>,
        rules: [PayloadRule]
    ) throws -> (output: [UInt8], chain: UInt32, lastSeq: Int64, stripped: Int64) {
        var output: [UInt8] = []
        output.reserveCapacity(original.count)
        var chain = previousChain
        var lastSeq: Int64 = 0
        var stripped: Int64 = 0
        var lineNumber: Int64 = 0
        try original.withUnsafeBytes { bytes in
            var start = 0
            while start < bytes.count, let newline = LogReader.newlineIndex(in: bytes, from: start) {
                lineNumber += 1
                let line = UnsafeRawBufferPointer(rebasing: bytes[start..<newline])
                let envelope: EventEnvelope
                do throws(LineProblem) {
                    envelope = try EnvelopeCodec.decode(line, previousChain: chain, allowStripped: allowStripped)
                } catch {
                    throw LogDamage(
                        path: path, line: lineNumber, seq: lastSeq + 1, offset: Int64(start), problem: error)
                }
                if strip.contains(envelope.seq), let rule = rule(for: envelope, in: rules) {
                    _ = EnvelopeCodec.encodeStripped(
                        envelope, data: try strippedData(envelope.data, rule: rule), into: &output)
                    stripped += 1
                } else {
                    output.append(contentsOf: line)
                    output.append(UInt8(ascii: "\n"))
                }
                chain = envelope.chain
                lastSeq = envelope.seq
                start = newline + 1
            }
        }
        return (output, chain, lastSeq, stripped)
    }

    /// Checks the manifest's record of each compacted segment against the file: its length and CRC-32C.
    ///
    /// A segment that does not match but has its original length is the original, left by a compaction
    /// interrupted before its rename (its lines verified on the way here): a note, not damage.
    ///
    /// - Returns: notes for interrupted compactions.
    /// - Throws: `LogDamage` (`manifest`) for a compacted segment that matches neither.
    package static func checkManifest(_ files: LogFiles) throws -> [String] {
        var notes: [String] = []
        for entry in files.manifest.compacted.values.sorted(by: { $0.firstSeq < $1.firstSeq }) {
            let path = files.path(ofSegment: entry.firstSeq)
            guard files.segments.contains(entry.firstSeq), let bytes = try LogFiles.readWholeFile(path) else {
                if let truncated = files.manifest.truncated, entry.lastSeq <= truncated.throughSeq { continue }
                throw LogDamage(
                    path: path, line: 1, seq: entry.firstSeq, offset: 0,
                    problem: LineProblem(.badSeq, "the manifest lists this compacted segment, but it is missing"),
                    kind: .segmentMissing)
            }
            if Int64(bytes.count) == entry.bytes, CRC32C.checksum(bytes) == entry.crc { continue }
            if Int64(bytes.count) == entry.originalBytes {
                notes.append(
                    "\(LogFiles.segmentName(entry.firstSeq)): a compaction was interrupted before its rename; the "
                        + "original segment is in place and intact")
                continue
            }
            throw LogDamage(
                path: path, line: 1, seq: entry.firstSeq, offset: 0,
                problem: LineProblem(
                    .badCRC, "the compacted segment's length or CRC-32C differs from the manifest's record"),
                kind: .manifest)
        }
        return notes
    }
}
