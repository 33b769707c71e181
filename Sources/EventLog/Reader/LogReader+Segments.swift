extension LogReader {
    /// Reads `sources` in order, from `requested` (moved past a truncation, or back to a compacted segment's
    /// start) up to `limit`: each file after the first must continue the one before it.
    static func read(
        _ sources: [Source], truncated: LogManifest.Truncation?, start requested: LogWriter.Position,
        limit: LogEnd?, index: SeqIndex?, maxTornBytes: Int64, _ body: (EventEnvelope, LinePlace) throws -> Bool
    ) throws -> Outcome {
        var start = requested
        if let truncated, start.nextSeq <= truncated.throughSeq + 1 {
            start = LogWriter.Position(
                nextSeq: truncated.throughSeq + 1, lastChain: truncated.lastChain, length: 0,
                file: truncated.throughSeq + 1)
        }
        guard let first = try firstSource(sources, holding: start) else {
            return Outcome.nothingRead(at: start)
        }
        var skipBefore: Int64 = 0
        if let compaction = sources[first].compacted, start.length > 0 {
            skipBefore = start.nextSeq
            start = LogWriter.Position(
                nextSeq: compaction.firstSeq, lastChain: compaction.previousChain, length: 0, file: compaction.firstSeq)
        }
        // Lines are indexed onto `index`, or from the log's first line; a read from elsewhere indexes nothing.
        let fromFirstLine = first == 0 && start.length == 0 && start.nextSeq == (truncated?.throughSeq ?? 0) + 1
        var scanner = Scanner(
            start: start, maxTornBytes: maxTornBytes, skipBefore: skipBefore, index: index,
            indexing: index != nil || fromFirstLine)
        var outcome: Outcome?
        for (number, source) in sources[first...].enumerated() {
            let isLast = first + number == sources.count - 1
            let fileSeq = source.firstSeq ?? (number == 0 ? start.file : scanner.position.nextSeq)
            if number > 0 {
                try checkContinues(source, after: scanner.position)
                scanner.enter(file: fileSeq, path: source.path, compacted: source.compacted)
            } else {
                scanner.enter(file: fileSeq, path: source.path, compacted: source.compacted, offset: start.length)
            }
            let capped = limit.flatMap { $0.file == fileSeq ? $0.length : nil }
            let fileOutcome = try readFile(source, scanner: &scanner, limit: capped, sealed: !isLast, body)
            outcome = fileOutcome
            if let compaction = source.compacted, !fileOutcome.stopped, capped == nil {
                try checkEnd(of: source, compaction, scanner: scanner)
            }
            if fileOutcome.stopped || capped != nil { break }
        }
        return outcome ?? Outcome.nothingRead(at: start)
    }

    /// The index of the source that holds `start`; nil when `start` lies past the sealed segments and there is
    /// no active file, so nothing is read.
    ///
    /// - Throws: `LogDamage` (`segment_missing`) when the segment that should hold `start` is not there.
    private static func firstSource(_ sources: [Source], holding start: LogWriter.Position) throws -> Int? {
        guard !sources.isEmpty else { return nil }
        let sealed = sources.compactMap(\.firstSeq)
        if let index = sources.firstIndex(where: { $0.firstSeq == start.file }) {
            return index
        } else if start.file > (sealed.last ?? 0) {
            guard sources.last?.firstSeq == nil else {
                return nil
            }
            return sources.count - 1
        } else {
            let directory = sources.first.map { String($0.path[..<($0.path.lastIndex(of: "/") ?? $0.path.startIndex)]) }
            throw LogDamage(
                path: (directory.map { $0 + "/" } ?? "") + LogFiles.segmentName(start.file), line: 1,
                seq: start.nextSeq, offset: 0,
                problem: LineProblem(
                    .badSeq,
                    "the segment holding seq \(start.nextSeq) is missing (the log's segments begin at "
                        + "seq \(sealed.first ?? start.file))"), kind: .segmentMissing)
        }
    }

    /// Checks that a file after the first begins where the one before ended (`position`): at the seq its name
    /// says, and, when compacted, at the chain the manifest links it to.
    private static func checkContinues(_ source: Source, after position: LogWriter.Position) throws {
        if let named = source.firstSeq, named != position.nextSeq {
            let expected = position.nextSeq
            throw LogDamage(
                path: source.path, line: 1, seq: expected, offset: 0,
                problem: LineProblem(
                    .badSeq,
                    named > expected
                        ? "it begins at seq \(named), but the file before it ends at seq \(expected - 1): "
                            + "seqs \(expected)…\(named - 1) are missing"
                        : "it begins at seq \(named), but the file before it already reached seq "
                            + "\(expected - 1) (out of order, or renamed?)"), kind: .segmentMissing)
        }
        if let compaction = source.compacted, compaction.previousChain != position.lastChain {
            throw LogDamage(
                path: source.path, line: 1, seq: position.nextSeq, offset: 0,
                problem: LineProblem(
                    .badChain,
                    "the manifest links this compacted segment to a chain the file before it "
                        + "does not end in"), kind: .manifest)
        }
    }

    /// Checks that a compacted segment read to its end ends where the manifest says: its last seq, with its chain.
    private static func checkEnd(of source: Source, _ compaction: LogManifest.Compaction, scanner: Scanner) throws {
        if compaction.lastChain != scanner.position.lastChain || compaction.lastSeq != scanner.position.nextSeq - 1 {
            throw LogDamage(
                path: source.path, line: scanner.lineNumber, seq: scanner.position.nextSeq - 1,
                offset: scanner.offset,
                problem: LineProblem(
                    .badChain,
                    "the compacted segment ends at seq \(scanner.position.nextSeq - 1), not where the "
                        + "manifest says (seq \(compaction.lastSeq) with its chain)"), kind: .manifest)
        }
    }
}
