import Providers
import WeatherDomain
import WeatherRuntime

/// The next minutes' precipitation at a place, as `weather/nowcast` and MCP's `get_nowcast` answer it.
package struct NowcastAnswer: Sendable {
    package var place: Place
    /// The source's answer (its steps from the one holding `now`, at most `horizonMinutes` ahead); nil when no
    /// source serves the place.
    package var answer: FetchAnswer<Nowcast>?
    /// What the steps say, read at `now`; nil when no source serves the place.
    package var summary: NowcastSummary?
    /// The sources passed over before the one that answered (all of them when none did), each with why.
    package var passedOver: [(source: Nowcast.Source, reason: String)]
    package var units: UnitChoice
    package var now: Timestamp
    /// The place's clocks, for the sentence's times.
    package var zone: ZoneOffsets

    /// The sentence for people: "Light rain starting in about 10 min, easing off around 14:40.", or where no
    /// source answered, why each did not: "No nowcast source could answer for this place: met-norway serves
    /// Norway, Sweden, Finland and Denmark only; open-meteo failed (HTTP 502)."
    package var sentence: String {
        guard let summary, let nowcast = answer?.value else {
            guard !passedOver.isEmpty else { return "No nowcast source is allowed (--nowcast-sources)." }
            let tried = passedOver.map { "\($0.source.rawValue) \($0.reason)" }.joined(separator: "; ")
            return "No nowcast source could answer for this place: \(tried)."
        }
        return summary.sentence(kind: nowcast.kind, now: now) { LocalDate.clockText($0, zone: zone) }
    }
}

extension Engine {
    /// How far ahead a nowcast answer reaches: two hours, as far as MET Norway's radar nowcast goes.
    package static let nowcastHorizonMinutes = 120

    /// The next minutes' precipitation at a place, from the best source that serves it (see
    /// `FetchActor.nowcast`), in the reader's `units`.
    package func nowcast(_ place: PlaceQuery, units: Units?, origin: Origin) -> Completion<NowcastAnswer> {
        Completion {
            let resolved = try await self.resolve(place, cause: origin.cause)
            return try await self.nowcastAnswer(at: resolved, units: try await self.units(units), cause: origin.cause)
        }
    }

    /// The nowcast at a resolved place, read at the time of the answer.
    func nowcastAnswer(at place: Place, units: UnitChoice, refresh: Bool = false, cause: String) async throws
        -> NowcastAnswer
    {
        let fetched = try await fetcher.nowcast(at: place, refresh: refresh, cause: cause)
        let now = clock.timestamp()
        let zone = await cache.read { Self.zone(of: place.key, in: $0, around: now) }
        guard var answer = fetched.answer else {
            return NowcastAnswer(
                place: place, answer: nil, summary: nil, passedOver: fetched.passedOver, units: units, now: now,
                zone: zone)
        }
        let nowcast = answer.value
        answer.value.steps = nowcast.ahead(of: now, horizonMinutes: Self.nowcastHorizonMinutes)
        let summary = NowcastSummary(answer.value.steps, resolutionMinutes: nowcast.resolutionMinutes, now: now)
        return NowcastAnswer(
            place: place, answer: answer, summary: summary, passedOver: fetched.passedOver,
            units: units, now: now, zone: zone)
    }

    /// The place's clocks around `now`, by the zone (or else the offset) the last weather fetched for it names
    /// (UTC when none was).
    static func zone(of key: String, in cache: WeatherCache, around now: Timestamp) -> ZoneOffsets {
        let named =
            cache.current[key].map { ($0.value.timezone, $0.value.utcOffsetSeconds) }
            ?? cache.forecast[key].map { ($0.value.timezone, $0.value.utcOffsetSeconds) }
        guard let named else { return .fixed(0) }
        return .place(timezone: named.0, utcOffsetSeconds: named.1, around: now)
    }
}
