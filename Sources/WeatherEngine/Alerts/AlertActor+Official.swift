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
        let offset = await utcOffset(of: target.place.key)
        let now = clock.timestamp()
        await append(cause: cause) { state in
            AirQualityAlerts.decide(state, target: target, report: report, utcOffsetSeconds: offset, now: now)
        }
    }

    /// The place's offset from UTC as the last weather fetched for it says (0 when none was).
    private func utcOffset(of key: String) async -> Int64 {
        await cache.read { cache in
            cache.current[key]?.value.utcOffsetSeconds ?? cache.forecast[key]?.value.utcOffsetSeconds ?? 0
        }
    }

    /// Decides the `official` rule for `target` with the warnings in force there now.
    func official(
        _ target: AlertTarget, warnings: [OfficialWarning],
        attribution: @escaping @Sendable (OfficialWarning.Source) -> String, cause: String
    ) async {
        let known = await alerts.read { OfficialAlerts.firstIds(in: $0) }
        let firstIds = lineage.record(warnings, isFirst: known.contains)
        guard !warnings.isEmpty else { return }
        let offset = await utcOffset(of: target.place.key)
        let now = clock.timestamp()
        await append(cause: cause) { state in
            OfficialAlerts.decide(
                state, target: target, warnings: warnings, firstIds: firstIds, attribution: attribution,
                utcOffsetSeconds: offset, now: now)
        }
    }
}
