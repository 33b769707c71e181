/// Damage that is not a torn tail: start-up refuses, naming where it is.
package struct LogDamage: Error, Sendable, Equatable, CustomStringConvertible {
    /// What makes it damage rather than a torn write.
    package enum Kind: String, Sendable {
        /// A complete, well-formed line whose crc, chain or seq does not hold.
        case damagedLine = "damaged_line"
        /// An invalid line followed by well-formed lines: acknowledged events may lie behind it.
        case logLinesFollow = "log_lines_follow"
        /// More bad bytes at the end than one interrupted write can leave.
        case tailTooLong = "tail_too_long"
        /// The first line is text but not a log line: another program's file.
        case notAWeatherdLog = "not_a_weatherd_log"
        /// A sealed segment is missing, out of order, or misnamed: seqs are not gapless across the files.
        case segmentMissing = "segment_missing"
        /// A sealed segment ends in a cut line or bad bytes (only the active file can be torn by a crash).
        case sealedSegmentTorn = "sealed_segment_torn"
        /// The log's manifest (`log-manifest.json`) is damaged, or a file does not match it.
        case manifest = "manifest"
    }

    package var path: String
    /// The 1-based line number.
    package var line: Int64
    /// The seq the line should have had.
    package var seq: Int64
    /// The byte offset where the line starts.
    package var offset: Int64
    package var problem: LineProblem
    package var kind: Kind

    package init(path: String, line: Int64, seq: Int64, offset: Int64, problem: LineProblem, kind: Kind = .damagedLine)
    {
        self.path = path
        self.line = line
        self.seq = seq
        self.offset = offset
        self.problem = problem
        self.kind = kind
    }

    package var description: String {
        let place = "\(path): line \(line) (seq \(seq), byte offset \(offset))"
        let advice = "No byte was changed; restore the file from a backup, or move it aside to start afresh."
        switch kind {
        case .notAWeatherdLog:
            return "\(path) is not a weatherd log: its first line is not a weatherd event. \(advice)"
        case .damagedLine:
            return "\(place) is damaged: \(problem.detail) [\(problem.reason.rawValue)]. A complete line with a bad "
                + "checksum is damage, not an interrupted write. \(advice)"
        case .logLinesFollow:
            return "\(place) is damaged: \(problem.detail) [\(problem.reason.rawValue)]. Log lines follow it, so "
                + "acknowledged events may lie behind the damage. \(advice)"
        case .tailTooLong, .sealedSegmentTorn, .manifest:
            return "\(place) is damaged: \(problem.detail) [\(problem.reason.rawValue)]. \(advice)"
        case .segmentMissing:
            return "\(path) does not continue the log: \(problem.detail). Segments are read in seq order and must "
                + "follow each other without a gap. \(advice)"
        }
    }
}
