import Providers
import WeatherDomain

/// How sure the forecast at a place is, as `weather/confidence` and MCP's `get_forecast_confidence` answer it: the
/// spread of an ensemble's members (or MET Norway's percentiles) for each day from today and each of the next 48
/// hours.
package struct ConfidenceAnswer: Sendable {
    package var place: Place
    /// The spread, its days from the place's today on (as many as asked) and its hours from the one running now.
    package var summary: EnsembleSummary
    package var fetchedAt: Timestamp
    package var provider: String
    /// `network` or `cache`.
    package var source: String
    /// Served from the cache because the source could not be reached.
    package var stale: Bool
    package var units: UnitChoice
    /// The place's local date when answered.
    package var today: String
}

/// Several deterministic models' days at a place, compared, as `weather/compareModels` and MCP's `compare_models`
/// answer them.
package struct ModelComparisonAnswer: Sendable {
    package var place: Place
    /// The models compared, in the order asked.
    package var models: [String]
    /// Each day from the place's today on, compared (`ModelComparison.days`).
    package var days: [ComparedDay]
    /// The models that gave no high or low on any day: missing at the point altogether.
    package var missingModels: [String]
    /// The place's zone, as the answer named it, and its offset from UTC when fetched.
    package var timezone: String?
    package var utcOffsetSeconds: Int64
    package var fetchedAt: Timestamp
    package var source: String
    package var stale: Bool
    package var units: UnitChoice
    package var today: String
}

extension Engine {
    /// The most days `weather/confidence` and `weather/compareModels` answer.
    package static let confidenceDays = 16

    /// The sources of how sure forecasts are, as the configuration chooses them.
    var confidenceSources: ConfidenceSources { configuration.makeConfidenceSources(provider: fetcher.provider) }

    /// How sure the forecast at a place is: the spread of the configured ensemble model's members from Open-Meteo's
    /// Ensemble API (MET Norway's own percentiles when it is the provider), `days` days from today (all it reaches
    /// when nil) and the next 48 hours, in the reader's units; one upstream call per place and model run.
    ///
    /// - Throws: `FieldError` (`-32602`) for `days` outside 1…16; the source's errors when it cannot be reached
    ///   and nothing is cached.
    package func confidence(_ place: PlaceQuery, days: Int?, units: Units?, origin: Origin)
        -> Completion<ConfidenceAnswer>
    {
        Completion {
            try Self.checkDays(days)
            let resolved = try await self.resolve(place, cause: origin.cause)
            let answer = try await self.fetcher.ensemble(
                at: resolved, sources: self.confidenceSources, cause: origin.cause)
            let now = self.clock.timestamp()
            var summary = answer.value
            let today = LocalDate.string(
                now,
                zone: .place(timezone: summary.timezone, utcOffsetSeconds: summary.utcOffsetSeconds, around: now))
            summary.days = Array(summary.days.filter { $0.date >= today }.prefix(days ?? Self.confidenceDays))
            summary.hours = Array(
                summary.hours.filter { $0.time.milliseconds + 3_600_000 > now.milliseconds }.prefix(
                    EnsembleSummary.maxHours))
            return ConfidenceAnswer(
                place: await self.answerPlace(for: place, resolved: resolved, reported: resolved), summary: summary,
                fetchedAt: answer.fetchedAt, provider: answer.provider, source: answer.source, stale: answer.stale,
                units: try await self.units(units), today: today)
        }
    }

    /// Several deterministic models' days at a place compared: `models` (2 to 8 Open-Meteo names, never
    /// `best_match`; `ModelComparison.defaultModels` when nil), `days` days from today (all when nil), in the
    /// reader's units; one upstream call per place and set of models in the forecast's TTL.
    ///
    /// - Throws: `FieldError` (`-32602`) for `days` outside 1…16 or a list of models `ModelComparison.validate`
    ///   refuses.
    package func compareModels(
        _ place: PlaceQuery, models: [String]?, days: Int?, units: Units?, origin: Origin
    ) -> Completion<ModelComparisonAnswer> {
        Completion {
            try Self.checkDays(days)
            let models = models ?? ModelComparison.defaultModels
            try ModelComparison.validate(models, path: "params.models")
            let resolved = try await self.resolve(place, cause: origin.cause)
            let answer = try await self.fetcher.models(
                models, at: resolved, sources: self.confidenceSources, cause: origin.cause)
            let now = self.clock.timestamp()
            let page = answer.value
            let today = LocalDate.string(
                now, zone: .place(timezone: page.timezone, utcOffsetSeconds: page.utcOffsetSeconds, around: now))
            let compared = Array(
                ModelComparison.days(page).filter { $0.date >= today }.prefix(days ?? Self.confidenceDays))
            let missing = models.filter { model in compared.allSatisfy { $0.missing.contains(model) } }
            return ModelComparisonAnswer(
                place: await self.answerPlace(for: place, resolved: resolved, reported: resolved), models: models,
                days: compared, missingModels: compared.isEmpty ? [] : missing, timezone: page.timezone,
                utcOffsetSeconds: page.utcOffsetSeconds, fetchedAt: answer.fetchedAt,
                source: answer.source, stale: answer.stale, units: try await self.units(units), today: today)
        }
    }

    private static func checkDays(_ days: Int?) throws(FieldError) {
        if let days, !(1...confidenceDays).contains(days) {
            throw FieldError(path: "params.days", problem: "must be 1…\(confidenceDays)")
        }
    }

}
