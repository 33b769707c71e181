import WeatherDomain

extension GoldenLogTests {
    /// The past session: a final history page with hours, a preliminary one, a climate page of every day since
    /// 1940 (its first days only, to keep the file small), and a failed archive call.
    static func v1PastEvents() -> [(DomainEvent, String, String?)] {
        let t = { (minute: Int64) in Timestamp(milliseconds: 1_795_348_800_000 + minute * 60_000) }
        let key = "52.22,6.89"
        let base = "https://archive-api.open-meteo.com/v1/archive?latitude=52.2171&longitude=6.8937"
        let call = { (url: String, minute: Int64, bytes: Int64) in
            UpstreamCall(
                provider: "open-meteo", url: base + url, status: 200, latencyMs: 180, bytes: bytes, attempt: 1,
                at: t(minute))
        }
        let final = PastPage(
            from: "1953-01-31", to: "1953-02-01", final: true,
            days: [
                PastDay(
                    date: "1953-01-31", low: 1.2, high: 6.1, precipitation: 11.9, mean: 3.5, windMax: 12.4,
                    condition: .wmo(63)),
                PastDay(
                    date: "1953-02-01", low: 0.4, high: 5.0, precipitation: 12.5, mean: 2.6, windMax: 11.1,
                    condition: .wmo(61)),
            ],
            hours: [
                PastHour(time: "1953-01-31T00:00", temperature: 5.8, precipitation: 0.6, windSpeed: 6.4),
                PastHour(
                    time: "1953-01-31T01:00", temperature: 5.5, precipitation: 0.4, windSpeed: 6.6, condition: .wmo(61)),
            ])
        let preliminary = PastPage(
            from: "2026-11-18", to: "2026-11-22", final: false,
            days: [
                PastDay(date: "2026-11-18", low: 2.1, high: 7.9, precipitation: 0, mean: 4.8, windMax: 5.2),
                PastDay(date: "2026-11-19", low: 3.0, high: 8.4, precipitation: 1.2, mean: 5.5, windMax: 6.0),
                PastDay(date: "2026-11-20", low: 1.0, high: 6.0, precipitation: 0.3, mean: 3.4, windMax: 4.4),
                PastDay(date: "2026-11-21", low: nil, high: nil),
                PastDay(date: "2026-11-22", low: nil, high: nil),
            ])
        let climate = PastPage(
            from: "1940-01-01", to: "1940-01-03", final: true,
            days: [
                PastDay(date: "1940-01-01", low: -6.2, high: -1.5, precipitation: 0),
                PastDay(date: "1940-01-02", low: -8.0, high: -2.25, precipitation: 0.1),
                PastDay(date: "1940-01-03", low: nil, high: -3.0, precipitation: nil),
            ])
        let finalURL = "&start_date=1953-01-31&end_date=1953-02-01"
        return [
            (
                .pastFetched(PastFetched(kind: .history, key: key, page: final, call: call(finalURL, 1, 1210))),
                "rpc:1", nil
            ),
            (
                .pastFetched(
                    PastFetched(
                        kind: .history, key: key, page: preliminary,
                        call: call("&start_date=2026-11-18&end_date=2026-11-22", 2, 900))), "rpc:2", nil
            ),
            (
                .pastFetched(
                    PastFetched(
                        kind: .climate, key: key, page: climate,
                        call: call("&start_date=1940-01-01&end_date=1940-01-03", 3, 640))), "rpc:3", nil
            ),
            (
                .weatherFetchFailed(
                    FetchFailed(
                        key: PastFetched.entry(kind: .climate, key: "48.86,2.35"), kind: PastFetched.fetchKind,
                        call: UpstreamCall(
                            provider: "open-meteo", url: base, status: 429, latencyMs: 30, bytes: 0, attempt: 1,
                            at: t(4)), error: "rate_limited",
                        message: "open-meteo is rate-limiting weatherd (HTTP 429).",
                        retryAfterSeconds: 60)), "rpc:4", nil
            ),
        ]
    }
}

extension GoldenLogTests {
    /// The days of a history range that neither ERA5 nor the log had, from the Historical Forecast API.
    static func v1PastForecastEvents() -> [(DomainEvent, String, String?)] {
        let at = Timestamp(milliseconds: 1_795_348_800_000 + 60_000)
        let page = PastPage(
            from: "2026-11-20", to: "2026-11-21", final: true,
            days: [
                PastDay(
                    date: "2026-11-20", low: 2.4, high: 7.1, precipitation: 0.8, mean: 4.6, windMax: 6.1,
                    condition: .wmo(61)),
                PastDay(date: "2026-11-21", low: 1.9, high: 6.2, precipitation: 0, mean: 3.9, windMax: 4.0),
            ])
        let call = UpstreamCall(
            provider: "open-meteo",
            url: "https://historical-forecast-api.open-meteo.com/v1/forecast?latitude=52.2171&longitude=6.8937"
                + "&start_date=2026-11-20&end_date=2026-11-21",
            status: 200, latencyMs: 150, bytes: 820, attempt: 1, at: at)
        return [
            (.pastFetched(PastFetched(kind: .forecastHistory, key: "52.22,6.89", page: page, call: call)), "rpc:1", nil)
        ]
    }
}
