import WeatherDomain

/// A request a provider wants made: the real URL and the one to record.
package struct ProviderRequest: Sendable, Equatable {
    /// The URL to fetch (may hold the API key).
    package var url: String
    /// The same URL with the API key removed: what the audit log, stdout and stderr may show.
    package var auditURL: String
    /// Request headers the provider needs (NWS refuses requests without a `User-Agent`); never an API key.
    package var headers: [String: String]
    /// Whether a 404 is an answer the decoder reads rather than a `not_found` error: NWS's `/points` answers
    /// 404 for a point outside its area, which tells that NWS does not cover it.
    package var notFoundIsAnswer: Bool

    package init(url: String, auditURL: String, headers: [String: String] = [:], notFoundIsAnswer: Bool = false) {
        self.url = url
        self.auditURL = auditURL
        self.headers = headers
        self.notFoundIsAnswer = notFoundIsAnswer
    }
}

/// A weather provider: how to ask it, and how to read its answers into canonical units.
///
/// Four implementations: `OpenMeteoProvider`, for OpenWeatherMap `OpenWeatherMapProvider` (its 2.5 APIs) and
/// `OpenWeatherMapOneCallProvider` (One Call 3.0), and `MetNorwayProvider`. None performs I/O:
/// the `FetchActor` makes the calls, times them, retries them and audits every attempt.
package protocol WeatherProvider: Sendable {
    /// `open-meteo`, `openweathermap` or `met-norway`, as recorded in events.
    var name: String { get }
    /// The provider whose geocoding `geocodeRequest` asks, as recorded in its events and rate limits: `name`,
    /// but for MET Norway, which has none and searches with Open-Meteo's.
    var geocodingName: String { get }
    /// Whether its forecast has hourly steps (besides the 3-hourly ones and the days).
    var hasHourlyForecast: Bool { get }

    func currentRequest(lat: Double, lon: Double) -> ProviderRequest
    func forecastRequest(lat: Double, lon: Double) -> ProviderRequest
    /// A geocoding request for at most `limit` (1…5) candidates.
    func geocodeRequest(query: String, limit: Int) -> ProviderRequest
    /// A reverse-geocoding request for the place at a point, whose answer `decodeGeocode` reads; nil when the
    /// provider has no reverse geocoding (Open-Meteo).
    func reverseGeocodeRequest(lat: Double, lon: Double) -> ProviderRequest?

    /// Reads a 2xx current-weather body. `place` is what was asked for (its name is kept when the provider has none).
    func decodeCurrent(_ body: [UInt8], place: Place) throws(ProviderError) -> CurrentReport
    /// Reads a 2xx forecast body into at most 40 three-hourly entries, the hourly steps it has (at most
    /// `ForecastReport.decodedHours`; the fetch keeps those from its own hour, `ForecastReport.hoursKept`) and
    /// the days by local date.
    func decodeForecast(_ body: [UInt8], place: Place) throws(ProviderError) -> ForecastReport
    /// Reads a 2xx geocoding body; no results is an empty array.
    func decodeGeocode(_ body: [UInt8]) throws(ProviderError) -> [Place]
}

extension WeatherProvider {
    /// The provider's own name: it geocodes itself.
    package var geocodingName: String { name }
}

/// A provider failure with a stable kind and a message that says what to do.
package struct ProviderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable kinds, shared with the JSON-RPC application errors.
    package enum Kind: String, Sendable, CaseIterable {
        case unauthorized
        case notFound = "not_found"
        case rateLimited = "rate_limited"
        case upstreamError = "upstream_error"
        case offline
        case timeout
        case badUpstreamResponse = "bad_upstream_response"
    }

    package var kind: Kind
    /// What happened, in words that suit every face.
    package var situation: String
    /// What to do, in the terms of JSON-RPC and the commands where it names their methods or weatherd's flags
    /// and environment (the MCP face words its own for those kinds), else in words for every face; nil when
    /// `situation` says it all or `remedy` gives it.
    package var advice: String?
    /// What the caller can do, named for each face to word (a place the provider does not know).
    package var remedy: Remedy?
    /// The HTTP status, when there was a response.
    package var status: Int?
    /// From `Retry-After` on a 429, in seconds.
    package var retryAfterSeconds: Int64?

    package init(
        _ kind: Kind, _ situation: String, advice: String? = nil, remedy: Remedy? = nil, status: Int? = nil,
        retryAfterSeconds: Int64? = nil
    ) {
        self.kind = kind
        self.situation = situation
        self.advice = advice
        self.remedy = remedy
        self.status = status
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// The situation and the advice, as JSON-RPC and the commands say it.
    package var message: String {
        (advice ?? remedy?.rpcAdvice).map { "\(situation) \($0)" } ?? situation
    }

    package var description: String { message }

    /// Whether another attempt may succeed (`upstream_error`, `timeout`, `offline`).
    package var isRetryable: Bool { kind == .upstreamError || kind == .timeout || kind == .offline }

    /// The error for a non-2xx status, from the status alone (never from the body's `cod`).
    ///
    /// - Returns: nil for 2xx.
    package static func from(status: Int, headers: [String: String], provider: String) -> ProviderError? {
        switch status {
        case 200..<300:
            return nil
        case 403 where provider == Nowcast.Source.metNorway.rawValue:
            // MET Norway answers 403 to clients it has blocked for breaking its terms: wait long before asking again.
            return ProviderError(
                .rateLimited, "\(provider) refused weatherd (HTTP 403), as it does clients that break its terms.",
                advice: "weatherd waits an hour before asking it again; check the contact (--contact).",
                status: status, retryAfterSeconds: 3600)
        case 401, 403:
            return ProviderError(
                .unauthorized, "\(provider) refused the API key (HTTP \(status)).",
                advice: "Check OWM_API_KEY, or use --provider open-meteo.", status: status)
        case 404:
            return ProviderError(
                .notFound, "\(provider) knows no such place (HTTP 404).", remedy: .searchCities,
                status: status)
        case 429:
            let retryAfter = headers["retry-after"].flatMap { Int64($0.trimmingWhitespace) }.map { max(0, $0) }
            return ProviderError(
                .rateLimited, "\(provider) is rate-limiting weatherd (HTTP 429).",
                advice: "Retry after \(retryAfter ?? 60) s.", status: status, retryAfterSeconds: retryAfter)
        case 500..<600:
            return ProviderError(
                .upstreamError, "\(provider) failed (HTTP \(status)).", advice: "Try again later.", status: status)
        default:
            return ProviderError(
                .badUpstreamResponse, "\(provider) answered HTTP \(status), which weatherd does not expect.",
                status: status)
        }
    }

    /// The error for a request that got no response, or whose body passed weatherd's limit.
    package static func from(_ error: TransportError, provider: String) -> ProviderError {
        switch error.kind {
        case .offline:
            return ProviderError(
                .offline, "\(provider) cannot be reached (\(error.detail)).",
                advice: "Check the network or the base URL.")
        case .timeout:
            return ProviderError(.timeout, "\(provider) did not answer in time.", advice: "Try again later.")
        case .tooLarge:
            let limit = error.limit.map { "\(TransportError.sizeText($0)) " } ?? ""
            return ProviderError(
                .badUpstreamResponse, "\(provider)'s answer passed weatherd's \(limit)limit for a response body.",
                advice: "Raise it with --max-body-bytes if answers this large are expected.")
        }
    }

    /// The error for a 2xx body that cannot be read.
    package static func badBody(_ provider: String, _ detail: String) -> ProviderError {
        ProviderError(.badUpstreamResponse, "\(provider) sent a response weatherd cannot read (\(detail)).")
    }
}
