/// How sure a day's forecast is, from how far an ensemble's members spread: `high`, `medium` or `low`.
///
/// The thresholds, on the wider of the day's two 10–90 % bands (its high's and its low's) and on the share of
/// members with precipitation:
/// - `high`: the band is at most `narrowBand` (3 °C) wide, and at most `agreeingDry` (20 %) or at least
///   `agreeingWet` (80 %) of the members are wet: the members agree on the temperature and on whether it rains;
/// - `low`: the band is at least `wideBand` (6 °C) wide, or between `splitFrom` and `splitTo` (35–65 %) of the
///   members are wet: they disagree on the temperature, or are split on rain;
/// - `medium` otherwise.
///
/// A day of fewer than `minimumMembers` members (5) has no label: so few cannot show a spread. The label says how
/// far the members agree, not how often such a forecast comes true (`weather/accuracy` says that).
package enum ConfidenceLabel: String, Sendable, CaseIterable {
    case high, medium, low

    /// The widest 10–90 % band of a `high` day, °C.
    package static let narrowBand = 3.0
    /// The narrowest 10–90 % band that makes a day `low`, °C.
    package static let wideBand = 6.0
    /// The most wet members (a share) of a day whose members agree it stays dry.
    package static let agreeingDry = 0.2
    /// The fewest wet members (a share) of a day whose members agree it rains.
    package static let agreeingWet = 0.8
    /// The shares of wet members that make a day `low`: the members split on rain.
    package static let splitFrom = 0.35
    package static let splitTo = 0.65
    /// The fewest members a label is given for.
    package static let minimumMembers = 5

    /// The label of a day whose high and low spread so and whose `wet` share of members (0…1) have precipitation;
    /// nil without a band, or with fewer than `minimumMembers` members (`members` nil: a source of published
    /// percentiles, whose members are not counted).
    package static func of(high: Spread, low: Spread, wet: Double?, members: Int?) -> ConfidenceLabel? {
        if let members, members < minimumMembers { return nil }
        let widths = [high.width, low.width].compactMap { $0 }
        guard let width = widths.max() else { return nil }
        let split = wet.map { splitFrom <= $0 && $0 <= splitTo } ?? false
        if width >= wideBand - 1e-9 || split { return .low }
        let agreeing = wet.map { $0 <= agreeingDry + 1e-9 || $0 >= agreeingWet - 1e-9 } ?? true
        if width <= narrowBand + 1e-9, agreeing { return .high }
        return .medium
    }
}
