import WeatherDomain

/// The nowcast sources a configuration allows, best first, and how to ask each. No I/O here: the caller
/// fetches, and decodes with `NowcastDecoders`.
///
/// - MET Norway's Nowcast 2.0 (radar, 5-minute steps): only with a contact for its `User-Agent`, and only
///   inside the Nordic area it serves; its answer then says whether the radar covers the point.
/// - OpenWeatherMap One Call 3.0's `minutely` (1-minute steps): only with `--owm-api onecall3` and a key.
/// - Open-Meteo's `minutely_15` (15-minute steps): keyless, everywhere, native only where
///   `NowcastDecoders.openMeteoIsNative` says so.
package struct NowcastSources: Sendable {
    /// MET Norway's API base (`https://api.met.no`) and the `User-Agent` naming weatherd and a contact; nil
    /// without a contact.
    package var metNorway: (baseURL: String, userAgent: String)?
    /// One Call 3.0, when configured.
    package var oneCall: OpenWeatherMapOneCallProvider?
    package var openMeteoBaseURL: String
    /// The sources allowed, in the order they are tried.
    package var enabled: [Nowcast.Source]

    package init(
        metNorway: (baseURL: String, userAgent: String)?, oneCall: OpenWeatherMapOneCallProvider?,
        openMeteoBaseURL: String, enabled: [Nowcast.Source] = Nowcast.Source.allCases
    ) {
        self.metNorway = metNorway.map { (RequestURL.base($0.baseURL), $0.userAgent) }
        self.oneCall = oneCall
        self.openMeteoBaseURL = RequestURL.base(openMeteoBaseURL)
        self.enabled = enabled
    }

    /// How often a watched place's nowcast is refreshed from a source: as often as the source renews it.
    package static func cadenceSeconds(_ source: Nowcast.Source) -> Int64 {
        switch source {
        case .metNorway: 300
        case .openWeatherMap: 600
        case .openMeteo: 900
        }
    }

    /// Whether `(lat, lon)` lies in the area MET Norway's nowcast serves (Norway, Sweden, Finland and
    /// Denmark, boxed and rounded outwards): outside it, MET Norway is not asked at all.
    package static func metNorwayServes(lat: Double, lon: Double) -> Bool {
        (53.5...72.0).contains(lat) && (3.0...32.0).contains(lon)
    }

    /// Why `source` cannot serve `(lat, lon)` with these settings, without asking it; nil when it may be asked.
    package func unavailable(_ source: Nowcast.Source, lat: Double, lon: Double) -> String? {
        guard enabled.contains(source) else { return "not among the nowcast sources allowed (--nowcast-sources)" }
        switch source {
        case .metNorway:
            if metNorway == nil { return "needs a contact for its User-Agent (--contact or WEATHERD_CONTACT)" }
            if !Self.metNorwayServes(lat: lat, lon: lon) {
                return "serves Norway, Sweden, Finland and Denmark only"
            }
        case .openWeatherMap:
            if oneCall == nil { return "needs One Call 3.0 (--provider openweathermap --owm-api onecall3)" }
        case .openMeteo:
            break
        }
        return nil
    }

    /// The request to `source` for `(lat, lon)`: coordinates with at most 4 decimals.
    package func request(_ source: Nowcast.Source, lat: Double, lon: Double) -> ProviderRequest? {
        switch source {
        case .metNorway:
            guard let metNorway else { return nil }
            let url = RequestURL.make(
                metNorway.baseURL, "/weatherapi/nowcast/2.0/complete",
                [("lat", RequestURL.coordinate(lat)), ("lon", RequestURL.coordinate(lon))])
            return ProviderRequest(url: url, auditURL: url, headers: ["User-Agent": metNorway.userAgent])
        case .openWeatherMap:
            return oneCall?.minutelyRequest(lat: lat, lon: lon)
        case .openMeteo:
            let url = RequestURL.make(
                openMeteoBaseURL, "/v1/forecast",
                [
                    ("latitude", RequestURL.coordinate(lat)), ("longitude", RequestURL.coordinate(lon)),
                    ("minutely_15", "precipitation,rain,snowfall"), ("forecast_minutely_15", "9"),
                    ("timezone", "auto"),
                ])
            return ProviderRequest(url: url, auditURL: url)
        }
    }

    /// Reads a 2xx body of `source`.
    package func decode(_ source: Nowcast.Source, _ body: [UInt8], lat: Double, lon: Double) throws(ProviderError)
        -> Nowcast
    {
        switch source {
        case .metNorway:
            var (nowcast, coverage) = try NowcastDecoders.metNorway(body)
            nowcast.radarCoverage = coverage.rawValue
            return nowcast
        case .openWeatherMap:
            guard let nowcast = try NowcastDecoders.openWeatherMap(body) else {
                throw ProviderError(
                    .badUpstreamResponse, "OpenWeatherMap's answer has no minutely steps for this place.")
            }
            return nowcast
        case .openMeteo:
            return try NowcastDecoders.openMeteo(body, native: NowcastDecoders.openMeteoIsNative(lat: lat, lon: lon))
        }
    }
}

extension OpenWeatherMapOneCallProvider {
    /// One Call 3.0 with `minutely` (and `current`, for what falls): the rest of the answer left out.
    package func minutelyRequest(lat: Double, lon: Double) -> ProviderRequest {
        classic.request(
            "/data/3.0/onecall",
            classic.coordinates(lat, lon) + [("units", requestUnits.rawValue), ("exclude", "hourly,daily,alerts")])
    }
}

/// The `User-Agent` weatherd sends where a provider asks to know who calls: `weatherd/VERSION (contact)`.
package enum UserAgent {
    /// Control characters in `contact` become spaces, so it can never end the header line; an empty contact
    /// gives `weatherd/VERSION` alone.
    package static func weatherd(contact: String, version: String) -> String {
        let cleaned = String(
            contact.map { character in
                character.unicodeScalars.contains { $0.properties.generalCategory == .control } ? " " : character
            }
        ).trimmingWhitespace
        return cleaned.isEmpty ? "weatherd/\(version)" : "weatherd/\(version) (\(cleaned))"
    }
}
