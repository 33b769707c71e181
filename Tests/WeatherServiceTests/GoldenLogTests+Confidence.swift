import WeatherDomain

extension GoldenLogTests {
    /// How sure forecasts are: an Open-Meteo ensemble's spread, MET Norway's own percentiles, several models' days
    /// with one missing at the place, a failed ensemble call, and a 304 that confirms MET Norway's spread.
    static func v1ConfidenceEvents() -> [(DomainEvent, String, String?)] {
        let t = { (minute: Int64) in Timestamp(milliseconds: 1_795_348_800_000 + minute * 60_000) }
        let key = "52.52,13.41"
        let ensembleURL =
            "https://ensemble-api.open-meteo.com/v1/ensemble?latitude=52.52&longitude=13.41&models=ecmwf_ifs025"
            + "&hourly=temperature_2m,precipitation&forecast_days=16&timezone=auto&timeformat=unixtime"
        let members = EnsembleSummary(
            model: "ecmwf_ifs025", method: .members, members: 51, timezone: "Europe/Berlin", utcOffsetSeconds: 3600,
            days: [
                ConfidenceDay(
                    date: "2026-11-22", members: 51, high: Spread(p10: 6.1, p25: 6.8, p50: 7.4, p75: 8.0, p90: 8.9),
                    low: Spread(p10: 0.2, p25: 0.9, p50: 1.5, p75: 2.0, p90: 2.6),
                    precipitation: Spread(p10: 0, p25: 0, p50: 0.4, p75: 1.2, p90: 3.1), precipitationMembers: 51,
                    wet: 0.55),
                ConfidenceDay(
                    date: "2026-11-23", members: 50, high: Spread(p10: 3.0, p25: 4.5, p50: 6.0, p75: 8.5, p90: 10.2),
                    low: Spread(p10: -3.1, p25: -2.0, p50: -0.8, p75: 0.4, p90: 1.9)),
            ],
            hours: [
                ConfidenceHour(
                    time: t(0), members: 51, temperature: Spread(p10: 4.0, p25: 4.4, p50: 4.9, p75: 5.3, p90: 5.8),
                    wet: 0.1),
                ConfidenceHour(
                    time: t(60), members: 49, temperature: Spread(p10: 3.6, p25: 4.1, p50: 4.5, p75: 5.0, p90: 5.5)),
            ])
        let percentiles = EnsembleSummary(
            model: "met-norway", method: .percentiles, members: nil, timezone: "Europe/Oslo", utcOffsetSeconds: 3600,
            days: [
                ConfidenceDay(
                    date: "2026-11-22", members: nil, high: Spread(p10: 2.5, p90: 4.1),
                    low: Spread(p10: -1.0, p90: 0.3),
                    precipitation: Spread(p10: 0, p90: 1.8), wet: 0.42)
            ],
            hours: [ConfidenceHour(time: t(0), members: nil, temperature: Spread(p10: 1.2, p90: 2.0), wet: 0.3)])
        let page = ModelsPage(
            models: ["ecmwf_ifs025", "gfs_seamless", "ukmo_seamless"], timezone: "Europe/Berlin",
            utcOffsetSeconds: 3600,
            dates: ["2026-11-22", "2026-11-23"],
            runs: [
                [
                    ModelDay(date: "2026-11-22", high: 7.4, low: 1.2, precipitation: 0.6, condition: .wmo(61)),
                    ModelDay(date: "2026-11-23", high: 5.9, low: -0.5, precipitation: 0, condition: .wmo(3)),
                ],
                [
                    ModelDay(date: "2026-11-22", high: 8.1, low: 2.0, precipitation: 1.1, condition: .wmo(63)),
                    ModelDay(date: "2026-11-23", high: nil, low: nil),
                ],
                [ModelDay(date: "2026-11-22", high: nil, low: nil), ModelDay(date: "2026-11-23", high: nil, low: nil)],
            ])
        let metURL = "https://api.met.no/weatherapi/locationforecast/2.0/complete?lat=59.91&lon=10.75"
        return [
            (
                .ensembleFetched(
                    EnsembleFetched(
                        key: key, summary: members,
                        call: UpstreamCall(
                            provider: "open-meteo", url: ensembleURL, status: 200, latencyMs: 640, bytes: 412_331,
                            attempt: 1, at: t(1)))), "conn:1/rpc:1", nil
            ),
            (
                .ensembleFetched(
                    EnsembleFetched(
                        key: "59.91,10.75", summary: percentiles,
                        call: UpstreamCall(
                            provider: "met-norway", url: metURL, status: 200, latencyMs: 210, bytes: 35_120, attempt: 1,
                            at: t(2), expiresAt: t(32), lastModified: "Sun, 22 Nov 2026 08:01:00 GMT"))),
                "conn:1/rpc:2", nil
            ),
            (
                .modelsFetched(
                    ModelsFetched(
                        key: key, page: page,
                        call: UpstreamCall(
                            provider: "open-meteo",
                            url: "https://api.open-meteo.com/v1/forecast?latitude=52.52&longitude=13.41&daily="
                                + "temperature_2m_max,temperature_2m_min,precipitation_sum,weather_code&models="
                                + "ecmwf_ifs025,gfs_seamless,ukmo_seamless&forecast_days=16&timezone=auto&timeformat=unixtime",
                            status: 200, latencyMs: 180, bytes: 2_310, attempt: 1, at: t(3)))), "conn:1/rpc:3", nil
            ),
            (
                .weatherFetchFailed(
                    FetchFailed(
                        key: EnsembleFetched.entry(model: "gfs025", key: "48.86,2.35"), kind: EnsembleFetched.fetchKind,
                        call: UpstreamCall(
                            provider: "open-meteo", url: ensembleURL, status: 502, latencyMs: 90, bytes: 0, attempt: 1,
                            at: t(4)), error: "upstream_error", message: "open-meteo answered HTTP 502.")),
                "conn:1/rpc:4", nil
            ),
            (
                .notModified(
                    NotModified(
                        kind: EnsembleFetched.fetchKind,
                        key: EnsembleFetched.entry(model: "met-norway", key: "59.91,10.75"),
                        call: UpstreamCall(
                            provider: "met-norway", url: metURL, status: 304, latencyMs: 70, bytes: 0, attempt: 1,
                            at: t(40), expiresAt: t(70), lastModified: "Sun, 22 Nov 2026 08:01:00 GMT"))),
                "conn:1/rpc:5", nil
            ),
        ]
    }
}
