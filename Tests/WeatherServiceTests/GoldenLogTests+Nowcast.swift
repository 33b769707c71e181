import WeatherDomain

extension GoldenLogTests {
    /// The nowcast session: a MET Norway answer with its `Expires` and `Last-Modified`, a 304 confirming it,
    /// an Open-Meteo answer (interpolated steps), a failed call, and two readings of the place's next minutes.
    static func v1NowcastEvents() -> [(DomainEvent, String, String?)] {
        let t = { (minute: Int64) in Timestamp(milliseconds: 1_795_348_800_000 + minute * 60_000) }
        let key = "59.91,10.75"
        let metURL = "https://api.met.no/weatherapi/nowcast/2.0/complete?lat=59.9139&lon=10.7522"
        let met = Nowcast(
            source: .metNorway, resolutionMinutes: 5,
            steps: (0..<24).map { NowcastStep(time: t($0 * 5), intensity: $0 >= 3 && $0 < 8 ? 1.2 : 0) },
            kind: .rain)
        var covered = met
        covered.radarCoverage = "ok"
        let lastModified = "Sun, 22 Nov 2026 12:00:40 GMT"
        let first = UpstreamCall(
            provider: "met-norway", url: metURL, status: 200, latencyMs: 140, bytes: 8120, attempt: 1, at: t(1),
            expiresAt: t(6), lastModified: lastModified)
        let confirmed = UpstreamCall(
            provider: "met-norway", url: metURL, status: 304, latencyMs: 60, bytes: 0, attempt: 1, at: t(7),
            expiresAt: t(12), lastModified: lastModified)
        let openMeteo = Nowcast(
            source: .openMeteo, resolutionMinutes: 15,
            steps: (0..<8).map { NowcastStep(time: t($0 * 15), intensity: 0, native: false) })
        let openMeteoURL =
            "https://api.open-meteo.com/v1/forecast?latitude=-0.18&longitude=-78.47"
            + "&minutely_15=precipitation,rain,snowfall&forecast_minutely_15=9&timezone=auto"
        let place = Place(name: "Oslo", country: "NO", state: nil, lat: 59.91, lon: 10.75)
        let starting = NowcastSummary(
            state: .starting, startsAt: t(15), endsAt: t(40), peak: 1.2, horizonMinutes: 120)
        let stopping = NowcastSummary(state: .stopping, startsAt: nil, endsAt: t(40), peak: 1.2, horizonMinutes: 110)
        return [
            (.nowcastFetched(NowcastFetched(key: key, call: first, nowcast: covered)), "rpc:1", nil),
            (
                .nowcastChanged(
                    NowcastChanged(
                        key: key, place: place, source: .metNorway, from: nil, summary: starting, precipitation: .rain,
                        at: t(2))), "watch", nil
            ),
            (.notModified(NotModified(kind: NowcastFetched.fetchKind, key: key, call: confirmed)), "watch", nil),
            (
                .nowcastFetched(
                    NowcastFetched(
                        key: "-0.18,-78.47",
                        call: UpstreamCall(
                            provider: "open-meteo", url: openMeteoURL, status: 200, latencyMs: 90, bytes: 900,
                            attempt: 1, at: t(8)), nowcast: openMeteo)), "rpc:2", nil
            ),
            (
                .weatherFetchFailed(
                    FetchFailed(
                        key: key, kind: NowcastFetched.fetchKind,
                        call: UpstreamCall(
                            provider: "met-norway", url: metURL, status: 429, latencyMs: 30, bytes: 0, attempt: 1,
                            at: t(13)), error: "rate_limited",
                        message: "met-norway is rate-limiting weatherd (HTTP 429).",
                        retryAfterSeconds: 120)), "watch", nil
            ),
            (
                .nowcastChanged(
                    NowcastChanged(
                        key: key, place: place, source: .metNorway, from: .starting, summary: stopping,
                        precipitation: .rain, at: t(20))), "watch", nil
            ),
        ]
    }
}
