/// How far the members of an ensemble spread for one value (a day's high, an hour's temperature): their 10th,
/// 25th, 50th, 75th and 90th percentiles, in canonical units (°C, mm).
///
/// Percentiles of members are computed by one method, linear interpolation between order statistics (the
/// members sorted, percentile `p` at rank `h = (n − 1) · p`, between the values at `⌊h⌋` and `⌈h⌉`), so one
/// member gives its own value for all five, and two give their mean as the median. They describe the members'
/// spread, not a calibrated probability. A source that publishes only some percentiles (MET Norway's 10th and
/// 90th) leaves the others nil.
package struct Spread: Sendable, Equatable {
    package var p10: Double?
    package var p25: Double?
    package var p50: Double?
    package var p75: Double?
    package var p90: Double?

    package init(p10: Double?, p25: Double? = nil, p50: Double? = nil, p75: Double? = nil, p90: Double?) {
        self.p10 = p10
        self.p25 = p25
        self.p50 = p50
        self.p75 = p75
        self.p90 = p90
    }

    /// The probabilities of the five percentiles, in their order.
    package static let levels = [0.10, 0.25, 0.50, 0.75, 0.90]

    /// The spread of `values` (at least one), by linear interpolation between order statistics; nil for none.
    package init?(of values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let found = Self.levels.map { Self.percentile(sorted, $0) }
        self.init(p10: found[0], p25: found[1], p50: found[2], p75: found[3], p90: found[4])
    }

    /// Percentile `p` (0…1) of `sorted` (ascending, not empty): the value at rank `(n − 1) · p`, interpolated
    /// linearly between the two order statistics around it.
    package static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        let rank = Double(sorted.count - 1) * p
        let lower = Int(rank.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        return sorted[lower] + (rank - Double(lower)) * (sorted[upper] - sorted[lower])
    }

    /// The width of the 10–90 % band, when both ends are known.
    package var width: Double? {
        guard let p10, let p90 else { return nil }
        return p90 - p10
    }

    /// `[p10, p25, p50, p75, p90]`, null where unknown: the compact form of events and snapshots.
    package var json: JSONValue {
        .array([p10, p25, p50, p75, p90].map { $0.map(JSONValue.double) ?? .null })
    }

    /// Reads the compact form: five numbers or nulls.
    package init(json: JSONValue?, path: String) throws(FieldError) {
        guard case .array(let items)? = json, items.count == 5 else {
            throw FieldError(path: path, problem: "must be an array of five numbers or nulls")
        }
        var values: [Double?] = []
        for (index, item) in items.enumerated() {
            if item.isNull {
                values.append(nil)
            } else if let number = item.doubleValue {
                values.append(number)
            } else {
                throw FieldError(path: "\(path)[\(index)]", problem: "must be a number or null")
            }
        }
        self.init(p10: values[0], p25: values[1], p50: values[2], p75: values[3], p90: values[4])
    }

    /// The same spread with `transform` applied to each known value (a unit conversion, which keeps order).
    package func map(_ transform: (Double) -> Double) -> Spread {
        Spread(
            p10: p10.map(transform), p25: p25.map(transform), p50: p50.map(transform), p75: p75.map(transform),
            p90: p90.map(transform))
    }
}
