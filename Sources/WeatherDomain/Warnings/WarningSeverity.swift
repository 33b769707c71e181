/// How severe an official warning says its hazard is: CAP's five severities, ordered.
///
/// The order (`unknown` < `minor` < `moderate` < `severe` < `extreme`) lets a rule ask whether an
/// update raised the severity. `unknown` sorts lowest because it claims nothing; it is not "mild".
package enum WarningSeverity: String, Sendable, Equatable, CaseIterable, Comparable {
    case unknown, minor, moderate, severe, extreme

    /// The severity of a CAP `severity` value (`Extreme`, `Severe`, `Moderate`, `Minor`, `Unknown`),
    /// in any case; a value outside CAP's list is `unknown` rather than a guess.
    package init(cap text: String) {
        self = WarningSeverity(rawValue: text.trimmingWhitespace.lowercased()) ?? .unknown
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
