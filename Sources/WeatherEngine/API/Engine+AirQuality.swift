import WeatherDomain
import WeatherRuntime

/// Air quality at a place, as `weather/airQuality` and MCP's `get_air_quality` answer it.
package struct AirQualityAnswer: Sendable, Equatable {
    package var place: Place
    /// The values now and the hours from the current one on (at most 24).
    package var report: AirQualityReport
    package var fetchedAt: Timestamp
    package var provider: String
    /// `network` for a fresh call, `cache` otherwise.
    package var source: String
    package var stale: Bool

    /// `{location, current, hourly, units, fetchedAt, source, stale, provider}`; a value the source lacks is
    /// absent, never 0, and `current` has `europeanAqiLevel` beside `europeanAqi`.
    package var json: JSONValue {
        func entry(_ entry: AirQualityEntry) -> JSONValue {
            guard case .object(var object) = entry.json else { return entry.json }
            if let level = entry.europeanLevel { object["europeanAqiLevel"] = .string(level.rawValue) }
            return .object(object)
        }
        var object: [String: JSONValue] = [
            "location": place.json, "hourly": .array(report.hourly.map(entry)),
            "units": [
                "concentration": "μg/m³", "pollen": "grains/m³", "europeanAqi": "EAQI", "usAqi": "US AQI",
                "owmAqi": "1..5", "uvIndex": "UV index",
            ],
            "fetchedAt": .string(fetchedAt.description), "source": .string(source), "stale": .bool(stale),
            "provider": .string(provider),
        ]
        if let current = report.current { object["current"] = entry(current) }
        return .object(object)
    }

    /// One line for people: the European index and its level now, else the US index, and the worst hour ahead.
    package var summary: String {
        let name = place.name ?? place.key
        let staleness = stale ? " (stale: the source could not be reached; as of \(fetchedAt))" : ""
        var parts: [String] = []
        if let current = report.current {
            if let aqi = current.europeanAqi, let level = current.europeanLevel {
                parts.append("European AQI \(Int(aqi.rounded())) (\(level.rawValue)) now")
            } else if let aqi = current.usAqi {
                parts.append("US AQI \(Int(aqi.rounded())) now")
            } else if let aqi = current.owmAqi {
                parts.append("OpenWeatherMap AQI \(Int(aqi.rounded())) of 5 now")
            }
            if let pm25 = current.pm25 { parts.append("PM2.5 \(Rounding.round(pm25, decimals: 1)) μg/m³") }
        }
        if let worst = report.hourly.filter({ $0.europeanAqi != nil }).max(by: {
            ($0.europeanAqi ?? 0) < ($1.europeanAqi ?? 0)
        }), let aqi = worst.europeanAqi, let level = worst.europeanLevel {
            parts.append("worst in 24 h: \(Int(aqi.rounded())) (\(level.rawValue)) at \(worst.time)")
        }
        if parts.isEmpty { parts.append("no values") }
        return "\(name): air quality \(parts.joined(separator: ", "))\(staleness)."
    }
}

extension Engine {
    /// Air quality at a place (`weather/airQuality`).
    package func airQuality(_ place: PlaceQuery, maxAgeMs: Int64?, origin: Origin) -> Completion<JSONValue> {
        Completion { try await self.airQualityAnswer(place, maxAgeMs: maxAgeMs, origin: origin).json }
    }

    /// Air quality at a place: the values now and the next 24 hours, from Open-Meteo's air-quality API (or
    /// OpenWeatherMap's air pollution API with that provider). Cached an hour; when the source cannot be
    /// reached, the last answer is served, marked stale.
    package func airQualityAnswer(_ place: PlaceQuery, maxAgeMs: Int64?, origin: Origin) async throws
        -> AirQualityAnswer
    {
        let resolved = try await resolve(place, cause: origin.cause)
        return try await airQualityAnswer(at: resolved, maxAgeMs: maxAgeMs, cause: origin.cause)
    }

    /// Air quality at a resolved place, its hours from the one holding now.
    func airQualityAnswer(at place: Place, maxAgeMs: Int64? = nil, refresh: Bool = false, cause: String)
        async throws -> AirQualityAnswer
    {
        let answer = try await fetcher.airQuality(at: place, maxAgeMs: maxAgeMs, refresh: refresh, cause: cause)
        let now = clock.timestamp().milliseconds
        var report = answer.value
        report.place = place
        report.hourly = Array(report.hourly.drop { $0.time.milliseconds + 3_600_000 <= now }.prefix(24))
        return AirQualityAnswer(
            place: place, report: report, fetchedAt: answer.fetchedAt, provider: answer.provider, source: answer.source,
            stale: answer.stale)
    }
}
