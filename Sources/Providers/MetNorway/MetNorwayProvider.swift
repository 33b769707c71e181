import WeatherDomain

/// MET Norway's Locationforecast 2.0 (`complete`), which needs no key but a `User-Agent` naming weatherd and a
/// contact; places are searched with Open-Meteo's keyless geocoding API, since MET Norway has none.
///
/// Its answers hold hourly steps for about two and a half days, then 6-hourly ones, each with the values at
/// its time (`instant`) and summaries of the next 1, 6 and 12 hours (a weather symbol, the precipitation). They
/// name no time zone: the place's zone is estimated from its coordinates (`ZoneTable`). Its data is licensed
/// under CC BY 4.0 and credited as `attribution` says.
package struct MetNorwayProvider: WeatherProvider {
    /// The credit MET Norway's licence asks for, shown with every answer of its data.
    package static let attribution = "Data from MET Norway (api.met.no), CC BY 4.0"
    /// The Locationforecast product weatherd reads.
    package static let path = "/weatherapi/locationforecast/2.0/complete"

    /// The API's base URL, without trailing slashes.
    package let baseURL: String
    /// `weatherd/VERSION (contact)`, which MET Norway's terms require.
    package let userAgent: String
    /// The places' time zones, for their local dates.
    package let zones: ZoneTable
    /// Open-Meteo, for geocoding.
    private let geocoding: OpenMeteoProvider

    /// Creates a provider; either base URL may carry a path prefix (a proxy) and a trailing slash.
    package init(
        userAgent: String, baseURL: String = "https://api.met.no",
        geocodingBaseURL: String = "https://geocoding-api.open-meteo.com", zones: ZoneTable
    ) {
        self.baseURL = RequestURL.base(baseURL)
        self.userAgent = userAgent
        self.zones = zones
        geocoding = OpenMeteoProvider(geocodingBaseURL: geocodingBaseURL)
    }

    /// `met-norway`, as recorded in events (and as `ProviderError` knows the provider that answers 403 to
    /// clients breaking its terms).
    package var name: String { Nowcast.Source.metNorway.rawValue }

    /// Geocoding is Open-Meteo's.
    package var geocodingName: String { geocoding.name }

    /// The forecast gives hourly steps.
    package var hasHourlyForecast: Bool { true }

    /// The one Locationforecast request, at most 4 decimals in the coordinates; `altitude` (whole metres above
    /// sea level) only when it is known, else MET Norway uses its own terrain model's.
    package func request(lat: Double, lon: Double, altitude: Double? = nil) -> ProviderRequest {
        var query = [("lat", RequestURL.coordinate(lat)), ("lon", RequestURL.coordinate(lon))]
        if let altitude, altitude.isFinite { query.append(("altitude", String(Int64(altitude.rounded())))) }
        let url = RequestURL.make(baseURL, Self.path, query)
        return ProviderRequest(url: url, auditURL: url, headers: ["User-Agent": userAgent])
    }

    /// The forecast itself: its first step is the current hour. weatherd's places carry no altitude, so none is
    /// sent.
    package func currentRequest(lat: Double, lon: Double) -> ProviderRequest { request(lat: lat, lon: lon) }

    /// The whole forecast.
    package func forecastRequest(lat: Double, lon: Double) -> ProviderRequest { request(lat: lat, lon: lon) }

    /// Open-Meteo's name search.
    package func geocodeRequest(query: String, limit: Int) -> ProviderRequest {
        geocoding.geocodeRequest(query: query, limit: limit)
    }

    /// Neither MET Norway nor Open-Meteo has reverse geocoding.
    package func reverseGeocodeRequest(lat: Double, lon: Double) -> ProviderRequest? { nil }

    /// Reads the first step with a next-hour summary as the current conditions.
    package func decodeCurrent(_ body: [UInt8], place: Place) throws(ProviderError) -> CurrentReport {
        try ResponseBody.decode(body, provider: name) { (root) throws(FieldError) in
            try current(try Self.timeline(root), place: place)
        }
    }

    /// Reads the hourly steps, the 3-hourly ones made of them, the days of every step, and the spread the same
    /// answer publishes (`spread`, from its first step on): none from an answer without percentiles, and none with
    /// a warning that says why from one whose percentiles cannot be read.
    package func decodeForecast(_ body: [UInt8], place: Place) throws(ProviderError) -> ForecastReport {
        try ResponseBody.decode(body, provider: name) { (root) throws(FieldError) in
            let timeline = try Self.timeline(root)
            var report = try forecast(timeline, place: place)
            do {
                report.spread = try spread(timeline, root: root, place: place, now: timeline.steps[0].time)
            } catch {
                report.warnings.append("no spread: \(error)")
            }
            return report
        }
    }

    /// Open-Meteo's answer to the search.
    package func decodeGeocode(_ body: [UInt8]) throws(ProviderError) -> [Place] {
        try geocoding.decodeGeocode(body)
    }
}
