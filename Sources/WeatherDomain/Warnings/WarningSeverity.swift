/// How severe an official warning says its hazard is: CAP's five severities, ordered.
///
/// The order (`unknown` < `minor` < `moderate` < `severe` < `extreme`) lets a rule ask whether an
/// update raised the severity. `unknown` sorts lowest because it claims nothing; it is not "mild".
/// Answers, events and metrics give a severity as CAP spells it (`cap`: `Severe`); the raw value
/// (`severe`) names it only inside weatherd (the `official` alerts' de-duplication keys).
package enum WarningSeverity: String, Sendable, Equatable, CaseIterable, Comparable {
    case unknown, minor, moderate, severe, extreme

    /// The severity of a CAP `severity` value (`Extreme`, `Severe`, `Moderate`, `Minor`, `Unknown`),
    /// in any case (Bright Sky writes them in lower case); a value outside CAP's list is `unknown` rather than a
    /// guess.
    package init(cap text: String) {
        self = WarningSeverity(rawValue: text.trimmingWhitespace.lowercased()) ?? .unknown
    }

    /// The severity of a recorded value: one of CAP's five in any case (`warnings.fetched` v1 wrote them in
    /// lower case, v2 as CAP spells them); nil for anything else.
    package init?(recorded text: String) {
        self.init(rawValue: text.lowercased())
    }

    /// The value as CAP spells it: `Extreme`, `Severe`, `Moderate`, `Minor` or `Unknown`.
    package var cap: String {
        switch self {
        case .unknown: "Unknown"
        case .minor: "Minor"
        case .moderate: "Moderate"
        case .severe: "Severe"
        case .extreme: "Extreme"
        }
    }

    private var rank: Int {
        switch self {
        case .unknown: 0
        case .minor: 1
        case .moderate: 2
        case .severe: 3
        case .extreme: 4
        }
    }

    package static func < (lhs: WarningSeverity, rhs: WarningSeverity) -> Bool { lhs.rank < rhs.rank }
}
