import Providers
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
    /// Why the hours are missing, when the source's call for them failed (the values now came): `hourly`
    /// is then empty. Nil when the hours came, or when the source gives them in the same call.
    package var hoursFailure: ProviderError? = nil
}

extension Engine {
    /// Air quality at a place: the values now and the next 24 hours, from Open-Meteo's air-quality API (or
    /// OpenWeatherMap's air pollution API with that provider). Cached an hour; when the source cannot be
    /// reached, the last answer is served, marked stale.
    package func airQuality(_ place: PlaceQuery, maxAgeMs: Int64?, origin: Origin) -> Completion<AirQualityAnswer> {
        Completion {
            let resolved = try await self.resolve(place, cause: origin.cause)
            return try await self.airQualityAnswer(at: resolved, maxAgeMs: maxAgeMs, cause: origin.cause)
        }
    }

    /// Air quality at a resolved place, its hours from the one holding now.
    func airQualityAnswer(at place: Place, maxAgeMs: Int64? = nil, refresh: Bool = false, cause: String)
        async throws -> AirQualityAnswer
    {
        let (answer, hoursFailure) = try await fetcher.airQuality(
            at: place, maxAgeMs: maxAgeMs, refresh: refresh, cause: cause)
        let now = clock.timestamp().milliseconds
        var report = answer.value
        report.place = place
        report.hourly = Array(report.hourly.drop { $0.time.milliseconds + 3_600_000 <= now }.prefix(24))
        return AirQualityAnswer(
            place: place, report: report, fetchedAt: answer.fetchedAt, provider: answer.provider, source: answer.source,
            stale: answer.stale, hoursFailure: hoursFailure)
    }
}
