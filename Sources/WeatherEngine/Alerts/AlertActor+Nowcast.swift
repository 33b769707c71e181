import WeatherDomain

extension AlertActor {
    /// Decides the `nowcast` rule for the places with alerts on at the changed place.
    func decide(after changed: NowcastChanged, cause: String) async {
        let now = clock.timestamp()
        let zone = await cache.read { Engine.zone(of: changed.key, in: $0, around: now) }
        let sentence = changed.summary.sentence(kind: changed.precipitation, now: changed.at) {
            LocalDate.clockText($0, zone: zone)
        }
        for target in await targets(for: changed.key) {
            await append(cause: cause) { state in
                NowcastAlerts.decide(state, target: target, changed: changed, sentence: sentence, zone: zone, now: now)
            }
        }
    }
}
