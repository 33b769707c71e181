import WeatherDomain

/// Refuses decoded answers whose values cannot be real, so nothing impossible reaches the log.
///
/// Both providers' decoders pass their results through here (via the `FetchActor`); a value out of
/// range makes the whole answer a `bad_upstream_response`, like an unreadable body.
package enum ReportCheck {
    package static func check(_ report: CurrentReport, provider: String) throws(ProviderError) {
        try place(report.place, provider)
        try offset(report.utcOffsetSeconds, provider)
        let now = report.current
        try step(
            temperature: now.temperature, humidity: now.humidity, cloudCover: now.cloudCover, pop: now.pop,
            windDirection: now.windDirection,
            amounts: [
                ("pressure", now.pressure), ("windSpeed", now.windSpeed), ("windGust", now.windGust),
                ("visibility", now.visibility), ("uvIndex", now.uvIndex), ("precipitation", now.precipitation),
            ], provider)
    }

    package static func check(_ report: ForecastReport, provider: String) throws(ProviderError) {
        try place(report.place, provider)
        try offset(report.utcOffsetSeconds, provider)
        for entry in report.entries + report.hourly {
            try step(
                temperature: entry.temperature, humidity: entry.humidity, cloudCover: entry.cloudCover,
                pop: entry.pop, windDirection: entry.windDirection,
                amounts: [
                    ("pressure", entry.pressure), ("windSpeed", entry.windSpeed), ("windGust", entry.windGust),
                    ("visibility", entry.visibility), ("uvIndex", entry.uvIndex),
                    ("precipitation", entry.precipitation),
                ], provider)
        }
        for day in report.daily {
            try range("pop", day.pop, 0...1, provider)
            try range("precipitation", day.precipitation, 0...Double.greatestFiniteMagnitude, provider)
            try range("uvIndex", day.uvIndex, 0...Double.greatestFiniteMagnitude, provider)
        }
    }

    /// The checks every step and the current conditions share.
    private static func step(
        temperature: Double, humidity: Double?, cloudCover: Double?, pop: Double?, windDirection: Double?,
        amounts: [(String, Double?)], _ provider: String
    ) throws(ProviderError) {
        try range("temperature", temperature, -100...100, provider)
        try range("humidity", humidity, 0...100, provider)
        try range("cloudCover", cloudCover, 0...100, provider)
        try range("pop", pop, 0...1, provider)
        try range("windDirection", windDirection, 0...360, provider)
        for (name, value) in amounts { try range(name, value, 0...Double.greatestFiniteMagnitude, provider) }
    }

    package static func check(_ places: [Place], provider: String) throws(ProviderError) {
        for candidate in places { try place(candidate, provider) }
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
        _ name: String, _ value: Double?, _ allowed: ClosedRange<Double>, _ provider: String
    ) throws(ProviderError) {
        guard let value else { return }
        guard value.isFinite, allowed.contains(value) else {
            throw .badBody(provider, "\(name) \(value) is out of range")
        }
    }
}
