import WeatherDomain

extension GoldenLogTests {
    /// The points session: `point.fetched` of both kinds (NWS covering a point, NWS's 404 outside its area, a
    /// reverse geocoding with a place and one with none) and their failures as `weather.fetch_failed`.
    static func v1PointEvents() -> [(DomainEvent, String, String?)] {
        let t = { (minute: Int64) in Timestamp(milliseconds: 1_795_348_800_000 + minute * 60_000) }
        let call = { (provider: String, url: String, minute: Int64, status: Int64?) in
            UpstreamCall(
                provider: provider, url: url, status: status, latencyMs: 70, bytes: status == nil ? 0 : 512,
                attempt: 1, at: t(minute))
        }
        let nws = { (key: String) in "https://api.weather.gov/points/\(key)" }
        let reverse = { (lat: String, lon: String) in
            "https://api.openweathermap.org/geo/1.0/reverse?lat=\(lat)&lon=\(lon)&limit=1"
        }
        let point = { (kind: PointFetched.Kind, key: String, call: UpstreamCall, facts: PointFetched.Facts) in
            DomainEvent.pointFetched(PointFetched(kind: kind, key: key, call: call, facts: facts))
        }
        return [
            (
                .weatherFetchFailed(
                    FetchFailed(
                        key: "45.52,-122.68", kind: "nws_point", call: call("nws", nws("45.52,-122.68"), 0, 500),
                        error: "upstream_error", message: "nws failed (HTTP 500). Try again later.")),
                "rpc:1", nil
            ),
            (
                point(
                    .nwsPoint, "45.52,-122.68", call("nws", nws("45.52,-122.68"), 1, 200),
                    PointFetched.Facts(covered: true)), "rpc:1", nil
            ),
            (
                point(
                    .nwsPoint, "43.86,18.41", call("nws", nws("43.86,18.41"), 2, 404),
                    PointFetched.Facts(covered: false)), "timer:warnings", nil
            ),
            (
                .weatherFetchFailed(
                    FetchFailed(
                        key: "43.86,18.41", kind: "reverse_geocode",
                        call: call("openweathermap", reverse("43.86", "18.41"), 3, nil), error: "offline",
                        message: "openweathermap cannot be reached (connection refused).")),
                "timer:warnings", nil
            ),
            (
                point(
                    .reverseGeocode, "43.86,18.41", call("openweathermap", reverse("43.86", "18.41"), 4, 200),
                    PointFetched.Facts(
                        place: Place(
                            name: "Sarajevo", country: "BA", state: "Federation of Bosnia and Herzegovina",
                            lat: 43.852, lon: 18.387))), "timer:warnings", nil
            ),
            (
                point(
                    .nwsPoint, "0.0,-30.0", call("nws", nws("0,-30"), 5, 404), PointFetched.Facts(covered: false)),
                "rpc:2", nil
            ),
            (
                point(
                    .reverseGeocode, "0.0,-30.0", call("openweathermap", reverse("0", "-30"), 6, 200),
                    PointFetched.Facts()), "rpc:2", nil
            ),
        ]
    }
}
