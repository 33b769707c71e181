import WeatherDomain

extension GoldenLogTests {
    /// The alert rules added to v2 in place: settings with `nowcast` and `forecastChange` on, a `nowcast` alert
    /// and a `forecast_change` alert, each as its rule decides it.
    static func v2AlertRuleEvents() -> [(DomainEvent, String, String?)] {
        let t = { (minute: Int64) in Timestamp(milliseconds: 1_795_348_800_000 + minute * 60_000) }
        var settings = AlertSettings()
        settings.nowcast = true
        settings.forecastChange = true
        var state = AlertState()
        state.apply(.alertsConfigured(settings))
        let berlin = Place(name: "Berlin", country: "DE", state: nil, lat: 52.52, lon: 13.41)
        let target = AlertTarget(place: berlin, favoriteId: "fav-1")
        let starting = NowcastSummary(state: .starting, startsAt: t(15), endsAt: t(40), peak: 1.2, horizonMinutes: 120)
        let changed = NowcastChanged(
            key: berlin.key, place: berlin, source: .openMeteo, from: .dry, summary: starting, precipitation: .rain,
            at: t(1))
        let nowcast = NowcastAlerts.decide(
            state, target: target, changed: changed, sentence: "Light rain starting in about 14 min.",
            zone: .fixed(3600), now: t(2))
        for event in nowcast { state.apply(event) }
        let told = ForecastRevision(
            fetchedAt: t(-720),
            day: DailySummary(date: "2026-11-24", min: 4, max: 14, pop: 0.2, condition: .wmo(3)))
        let forecastChange = ForecastChangeAlerts.decide(
            state, target: target,
            days: [DailySummary(date: "2026-11-24", min: 2.5, max: 9, pop: 0.7, condition: .wmo(61))],
            fetchedAt: t(3), baselines: ["2026-11-24": told], today: "2026-11-22", zone: .fixed(3600), now: t(4))
        return [(.alertsConfigured(settings), "rpc:1", nil)] + nowcast.map { ($0, "event:2", nil) }
            + forecastChange.map { ($0, "event:3", nil) }
    }
}
