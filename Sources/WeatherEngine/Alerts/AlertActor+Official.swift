import Providers
import WeatherDomain
import WeatherRuntime

extension AlertActor {
    /// Follows the threads of the warnings cached before this start, so an update of a warning raised then
    /// is known as such.
    func seedLineage() async {
        let cached = await cache.read { cache in
            cache.warnings.values.sorted { $0.fetchedAt < $1.fetchedAt }.flatMap(\.value)
        }
        let known = await alerts.read { OfficialAlerts.firstIds(in: $0) }
        _ = lineage.record(cached, isFirst: known.contains)
    }

    /// Decides the `air_quality` rule for `target` with its air quality now and for the next hours.
    func airQuality(_ target: AlertTarget, report: AirQualityReport, cause: String) async {
        let now = clock.timestamp()
        let zone = await zone(of: target.place.key, around: now)
        await append(cause: cause) { state in
            AirQualityAlerts.decide(state, target: target, report: report, zone: zone, now: now)
        }
    }

    /// The place's clocks around `now`, by the zone (or else the offset) the last weather fetched for it
    /// names (UTC when none was).
    private func zone(of key: String, around now: Timestamp) async -> ZoneOffsets {
        await cache.read { Engine.zone(of: key, in: $0, around: now) }
    }

    /// Decides the `official` rule for `target` with the warnings in force there now.
    func official(
        _ target: AlertTarget, warnings: [OfficialWarning],
        attribution: @escaping @Sendable (OfficialWarning.Source) -> String, cause: String
    ) async {
        // A place without warnings costs nothing: the raised alerts are read only for one with some.
        guard !warnings.isEmpty else { return }
        let known = await alerts.read { OfficialAlerts.firstIds(in: $0) }
        let firstIds = lineage.record(warnings, isFirst: known.contains)
        let now = clock.timestamp()
        let zone = await zone(of: target.place.key, around: now)
        await append(cause: cause) { state in
            OfficialAlerts.decide(
                state, target: target, warnings: warnings, firstIds: firstIds, attribution: attribution,
                zone: zone, now: now)
        }
    }
}
