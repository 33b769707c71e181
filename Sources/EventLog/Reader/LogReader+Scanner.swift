extension LogReader {
    /// Per-line state of one read, carried from file to file.
    struct Scanner {
        var path = ""
        let maxTornBytes: Int64
        var position: LogWriter.Position
        var offset: Int64
        var lineNumber: Int64 = 0
        var lines: Int64 = 0
        var linesInFile: Int64 = 0
        var index = SeqIndex()
        var firstBad: (line: Int64, seq: Int64, offset: Int64, problem: LineProblem)?
        var stopped = false
        /// Lines of lower seqs are verified but not passed on (a compacted segment read from its start).
        let skipBefore: Int64
        /// The manifest's entry when the current file is a compacted segment.
        var compacted: LogManifest.Compaction?
        /// Whether lines are recorded in `index`.
        let indexing: Bool

        init(start: LogWriter.Position, maxTornBytes: Int64, skipBefore: Int64, index: SeqIndex?, indexing: Bool) {
            self.maxTornBytes = maxTornBytes
            self.position = start
            self.offset = start.length
            self.skipBefore = skipBefore
            self.index = index ?? SeqIndex()
            self.indexing = indexing
        }

        /// Moves on to the file whose first seq is `file`, at `offset`.
        mutating func enter(file: Int64, path: String, compacted: LogManifest.Compaction?, offset: Int64 = 0) {
            self.path = path
            self.compacted = compacted
            self.offset = offset
            position.file = file
            position.length = offset
            linesInFile = 0
            // Line n of a file holds its n-th seq, so a read that starts at a later line still names lines by
            // their number.
            lineNumber = position.nextSeq - file
            if let compacted, offset == 0 { position.lastChain = compacted.previousChain }
        }

        mutating func line(
            _ bytes: UnsafeRawBufferPointer, _ body: (EventEnvelope, LinePlace) throws -> Bool
        ) throws {
            guard !stopped else { return }
            lineNumber += 1
            let lineOffset = offset
            offset += Int64(bytes.count) + 1
            if lineOffset == 0, EnvelopeCodec.isForeign(bytes) { throw foreign() }
            if let firstBad {
                if EnvelopeCodec.isWellFormed(bytes) { throw damage(firstBad, .logLinesFollow) }
                return
            }
            let envelope: EventEnvelope
            do throws(LineProblem) {
                envelope = try decode(bytes)
            } catch {
                let bad = (lineNumber, position.nextSeq, lineOffset, error)
                if EnvelopeCodec.isWellFormed(bytes) { throw damage(bad, .damagedLine) }
                firstBad = bad
                return
            }
            try accept(envelope, at: lineOffset, end: offset, body)
        }

        mutating func decode(_ bytes: UnsafeRawBufferPointer) throws(LineProblem) -> EventEnvelope {
            let envelope: EventEnvelope
            do throws(LineProblem) {
                envelope = try EnvelopeCodec.decode(
                    bytes, previousChain: position.lastChain, allowStripped: compacted != nil)
            } catch {
                // Compaction may have replaced this segment after the manifest was read: read it again, once.
                guard error.reason == .badChain, compacted == nil, let slash = path.lastIndex(of: "/"),
                    let entry = (try? LogManifest.read(directory: String(path[..<slash])))?.compacted[position.file]
                else { throw error }
                compacted = entry
                envelope = try EnvelopeCodec.decode(bytes, previousChain: position.lastChain, allowStripped: true)
            }
            guard envelope.seq == position.nextSeq else {
                throw LineProblem(.badSeq, "seq \(envelope.seq) where \(position.nextSeq) was expected")
            }
            return envelope
        }

        mutating func accept(
            _ envelope: EventEnvelope, at lineOffset: Int64, end: Int64,
            _ body: (EventEnvelope, LinePlace) throws -> Bool
        ) throws {
            if envelope.seq >= skipBefore {
                let place = LinePlace(path: path, file: position.file, offset: lineOffset, line: lineNumber)
                guard try body(envelope, place) else {
                    stopped = true
                    return
                }
            }
            if indexing {
                index.record(
                    seq: envelope.seq, offset: lineOffset, previousChain: position.lastChain, file: position.file)
            }
            position = LogWriter.Position(
                nextSeq: envelope.seq + 1, lastChain: envelope.chain, length: end, file: position.file)
            lines += 1
            linesInFile += 1
        }

        func damage(
            _ bad: (line: Int64, seq: Int64, offset: Int64, problem: LineProblem), _ kind: LogDamage.Kind
        ) -> LogDamage {
            LogDamage(path: path, line: bad.line, seq: bad.seq, offset: bad.offset, problem: bad.problem, kind: kind)
        }

        func foreign() -> LogDamage {
            LogDamage(
                path: path, line: 1, seq: position.nextSeq, offset: 0,
                problem: LineProblem(.badJSON, "the file does not begin with a weatherd log line"),
                kind: .notAWeatherdLog)
        }

        /// Ends the read: `trailing` holds the bytes after the last newline.
        mutating func finish(
            trailing: UnsafeRawBufferPointer, _ body: (EventEnvelope, LinePlace) throws -> Bool
        ) throws -> Outcome {
            if stopped { return Outcome(position: position, tail: nil, index: index, lines: lines, stopped: true) }
            let end = offset + Int64(trailing.count)
            if offset == 0, EnvelopeCodec.isForeign(trailing) { throw foreign() }
            var tail: TornTail?
            if let firstBad {
                tail = TornTail(offset: firstBad.offset, length: end - firstBad.offset, reason: firstBad.problem.reason)
            } else if !trailing.isEmpty {
                let envelope: EventEnvelope?
                do throws(LineProblem) { envelope = try decode(trailing) } catch { envelope = nil }
                if let envelope {
                    lineNumber += 1
                    try accept(envelope, at: offset, end: end, body)
                    return Outcome(
                        position: position, tail: nil, index: index, lines: lines, stopped: stopped,
                        missingNewline: !stopped)
                }
                tail = TornTail(offset: offset, length: Int64(trailing.count), reason: .noNewline)
            }
            if let tail, tail.length > maxTornBytes {
                let problem = LineProblem(
                    tail.reason,
                    "\(tail.length) bad bytes from here to the end, more than the \(maxTornBytes) bytes one "
                        + "interrupted write can leave")
                throw damage((firstBad?.line ?? lineNumber + 1, position.nextSeq, tail.offset, problem), .tailTooLong)
            }
            return Outcome(position: position, tail: tail, index: index, lines: lines, stopped: false)
        }
    }
}
