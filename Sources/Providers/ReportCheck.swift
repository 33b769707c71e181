import WeatherDomain

/// Keeps values that cannot be real out of the log.
///
/// Both providers' decoders pass their results through here (via the `FetchActor`). A core value that
/// cannot be real (a temperature, the place's coordinates, the UTC offset) makes the whole answer a
/// `bad_upstream_response`, like an unreadable body; any other field out of range is left out (nil), with
/// a warning in the report's `warnings`, and the rest is answered.
package enum ReportCheck {
    /// `report` with its impossible secondary values left out.
    ///
    /// - Throws: `ProviderError` (`bad_upstream_response`) when a core value cannot be real.
    package static func screened(_ report: CurrentReport, provider: String) throws(ProviderError) -> CurrentReport {
        try place(report.place, provider)
        try offset(report.utcOffsetSeconds, provider)
        try range("temperature", report.current.temperature, temperatures, provider)
        var report = report
        var dropped = Dropped()
        dropped.screen(&report.current, currentBounds)
        report.warnings += dropped.warnings
        return report
    }

    /// `report` with its impossible secondary values left out.
    ///
    /// - Throws: `ProviderError` (`bad_upstream_response`) when a core value cannot be real.
    package static func screened(_ report: ForecastReport, provider: String) throws(ProviderError) -> ForecastReport {
        try place(report.place, provider)
        try offset(report.utcOffsetSeconds, provider)
        for entry in report.entries + report.hourly {
            try range("temperature", entry.temperature, temperatures, provider)
        }
        var report = report
        var dropped = Dropped()
        for index in report.entries.indices { dropped.screen(&report.entries[index], entryBounds) }
        for index in report.hourly.indices { dropped.screen(&report.hourly[index], entryBounds) }
        for index in report.daily.indices { dropped.screen(&report.daily[index], dayBounds) }
        report.warnings += dropped.warnings
        return report
    }

    package static func check(_ places: [Place], provider: String) throws(ProviderError) {
        for candidate in places { try place(candidate, provider) }
    }

    /// The temperatures that can be real, in °C.
    private static let temperatures = -100.0...100.0
    private static let amounts = 0...Double.greatestFiniteMagnitude

    /// The secondary fields of the current conditions, with the values each may take.
    private static var currentBounds: [(String, WritableKeyPath<CurrentConditions, Double?>, ClosedRange<Double>)] {
        [
            ("humidity", \.humidity, 0...100), ("cloudCover", \.cloudCover, 0...100), ("pop", \.pop, 0...1),
            ("windDirection", \.windDirection, 0...360), ("pressure", \.pressure, amounts),
            ("windSpeed", \.windSpeed, amounts), ("windGust", \.windGust, amounts),
            ("visibility", \.visibility, amounts), ("uvIndex", \.uvIndex, amounts),
            ("precipitation", \.precipitation, amounts),
        ]
    }

    /// The secondary fields of a step, with the values each may take.
    private static var entryBounds: [(String, WritableKeyPath<ForecastEntry, Double?>, ClosedRange<Double>)] {
        [
            ("humidity", \.humidity, 0...100), ("cloudCover", \.cloudCover, 0...100), ("pop", \.pop, 0...1),
            ("windDirection", \.windDirection, 0...360), ("pressure", \.pressure, amounts),
            ("windSpeed", \.windSpeed, amounts), ("windGust", \.windGust, amounts),
            ("visibility", \.visibility, amounts), ("uvIndex", \.uvIndex, amounts),
            ("precipitation", \.precipitation, amounts),
        ]
    }

    /// The secondary fields of a day, with the values each may take.
    private static var dayBounds: [(String, WritableKeyPath<DailySummary, Double?>, ClosedRange<Double>)] {
        [("pop", \.pop, 0...1), ("precipitation", \.precipitation, amounts), ("uvIndex", \.uvIndex, amounts)]
    }

    private static func place(_ place: Place, _ provider: String) throws(ProviderError) {
        try range("lat", place.lat, -90...90, provider)
        try range("lon", place.lon, -180...180, provider)
    }

    private static func offset(_ seconds: Int64, _ provider: String) throws(ProviderError) {
        guard (-64_800...64_800).contains(seconds) else {
            throw .badBody(provider, "a UTC offset of \(seconds) s is outside ±18 h")
        }
    }

    private static func range(
        _ name: String, _ value: Double, _ allowed: ClosedRange<Double>, _ provider: String
    ) throws(ProviderError) {
        guard value.isFinite, allowed.contains(value) else {
            throw .badBody(provider, "\(name) \(value) is out of range")
        }
    }
}

/// The secondary values left out of one report: one warning per field, with its first value and count.
private struct Dropped {
    private var fields: [(name: String, first: Double, count: Int)] = []

    /// Leaves out each of `bounds`' fields of `value` that is set and not finite within its range.
    mutating func screen<Root>(
        _ value: inout Root, _ bounds: [(String, WritableKeyPath<Root, Double?>, ClosedRange<Double>)]
    ) {
        for (name, path, allowed) in bounds {
            guard let number = value[keyPath: path], !(number.isFinite && allowed.contains(number)) else { continue }
            value[keyPath: path] = nil
            if let index = fields.firstIndex(where: { $0.name == name }) {
                fields[index].count += 1
            } else {
                fields.append((name, number, 1))
            }
        }
    }

    /// `humidity 101.0 is out of range: left out`, with `(3 values in all)` when it recurs.
    var warnings: [String] {
        fields.map { field in
            "\(field.name) \(field.first) is out of range: left out"
                + (field.count > 1 ? " (\(field.count) values in all)" : "")
        }
    }
}
