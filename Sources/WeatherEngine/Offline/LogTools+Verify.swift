import EventLog
import WeatherDomain

extension LogTools {
    /// `log verify`: reads every line (crc, chain, seq, an event whose data fits its schema, of a known type),
    /// holds a truncated log to its base state and the compacted segments to the manifest; prints one JSON line
    /// and answers 0, or 1 at the first problem.
    static func verify(_ files: LogFiles, live: Bool, print: (String) -> Void) -> Int32 {
        do {
            // A truncated log begins past the dropped seqs: its base state must be there, and fit the log.
            let base = try Replay.truncationBase(directory: files.directory, commandWindow: .max)
            let read = try readVerifying(files, base: base)
            let outcome = read.outcome
            if let unknown = read.unknown {
                print(
                    JSONValue.object([
                        "ok": false, "file": .string(unknown.place.path), "line": .int(unknown.place.line),
                        "seq": .int(unknown.seq), "offset": .int(unknown.place.offset),
                        "error": .string("unknown event type \(unknown.kind)"),
                    ]).jsonString)
                return 1
            }
            if isProblem(outcome.tail, live: live), let tail = outcome.tail {
                print(
                    JSONValue.object([
                        "ok": false, "file": .string(files.activePath),
                        "line": .int(outcome.position.nextSeq - outcome.position.file + 1),
                        "seq": .int(outcome.position.nextSeq), "offset": .int(tail.offset),
                        "error": .string(
                            "torn tail of \(tail.length) bytes (\(tail.reason.rawValue)); the next start repairs it"),
                    ]).jsonString)
                return 1
            }
            if let base, !read.baseConfirmed {
                throw LogDamage(
                    path: LogTruncation.basePath(in: files.directory), line: 1, seq: base.state.lastSeq, offset: 0,
                    problem: LineProblem(
                        .badSeq,
                        "\(LogTruncation.baseName) holds the state of seq \(base.state.lastSeq), which the log does "
                            + "not reach"), kind: .manifest)
            }
            let notes = try SegmentCompactor.checkManifest(files)
            print(verified(files, read, base: base, notes: notes).jsonString)
            return 0
        } catch let damage as LogDamage {
            print(
                JSONValue.object([
                    "ok": false, "file": .string(damage.path), "line": .int(damage.line), "seq": .int(damage.seq),
                    "offset": .int(damage.offset), "error": .string(damage.problem.detail),
                ]).jsonString)
            return 1
        } catch {
            print(
                JSONValue.object(["ok": false, "dataDir": .string(files.directory), "error": .string("\(error)")])
                    .jsonString)
            return 1
        }
    }

    /// What `verify` learns from reading the whole log.
    private struct VerifyingRead {
        var outcome: LogReader.Outcome
        /// The first line's seq.
        var first: Int64?
        /// The first line of a type this weatherd does not know.
        var unknown: (place: LinePlace, seq: Int64, kind: EventKind)?
        /// Whether the log's line at the truncation base's seq has the base's chain (true without a base).
        var baseConfirmed: Bool
    }

    /// Reads the whole log, decoding every line's event and holding the line at `base`'s seq to its chain.
    ///
    /// - Throws: `LogDamage` for a line whose data does not match its schema, or whose chain is not the base's.
    private static func readVerifying(_ files: LogFiles, base: Replay.Base?) throws -> VerifyingRead {
        var unknown: (place: LinePlace, seq: Int64, kind: EventKind)?
        var first: Int64?
        var baseConfirmed = base == nil
        let outcome = try LogReader.read(directory: files.directory) { envelope, place in
            if first == nil { first = envelope.seq }
            if let base, envelope.seq == base.state.lastSeq {
                guard envelope.chain == base.chain else {
                    throw LogDamage(
                        path: LogTruncation.basePath(in: files.directory), line: 1, seq: envelope.seq, offset: 0,
                        problem: LineProblem(
                            .badChain,
                            "\(LogTruncation.baseName) holds the state of seq \(envelope.seq) with another chain "
                                + "than the log's line"), kind: .manifest)
                }
                baseConfirmed = true
            }
            let kind: EventCatalog.Outcome
            do {
                kind = try envelope.decodedEvent()
            } catch {
                throw LogDamage(
                    path: place.path, line: place.line, seq: envelope.seq, offset: place.offset,
                    problem: LineProblem(.badJSON, "data does not match its schema: \(error)"))
            }
            if case .unknown(let type) = kind, unknown == nil { unknown = (place, envelope.seq, type) }
            return true
        }
        return VerifyingRead(outcome: outcome, first: first, unknown: unknown, baseConfirmed: baseConfirmed)
    }

    /// The line `verify` prints for a log that verified: its events, seqs, bytes and segments.
    private static func verified(
        _ files: LogFiles, _ read: VerifyingRead, base: Replay.Base?, notes: [String]
    ) -> JSONValue {
        let outcome = read.outcome
        var result: [String: JSONValue] = [
            "ok": true, "dataDir": .string(files.directory), "events": .int(outcome.lines),
            "firstSeq": .int(read.first ?? outcome.position.nextSeq), "lastSeq": .int(outcome.position.nextSeq - 1),
            "bytes": .int(files.bytes), "segments": .int(Int64(files.segments.count)),
            "compactedSegments": .int(Int64(files.manifest.compacted.count)),
        ]
        if let truncated = files.manifest.truncated {
            result["truncatedThroughSeq"] = .int(truncated.throughSeq)
            result["baseSeq"] = base.map { .int($0.state.lastSeq) } ?? .null
        }
        if !notes.isEmpty { result["notes"] = .array(notes.map { .string($0) }) }
        return JSONValue.object(result)
    }
}
