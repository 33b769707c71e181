import WeatherDomain

/// What a daemon's answers from upstream depend on, as `service/status` shows them: the provider, the base URL
/// of each upstream, the fetch deadline, the cache ages, and which OpenWeatherMap key it calls with (as a
/// digest, never the key). (A client compares every option a daemon holds: `Configuration.heldOptions`.)
package struct UpstreamSettings: Sendable, Equatable {
    /// `open-meteo`, `openweathermap` or `met-norway`.
    package var provider: String
    /// OpenWeatherMap's weather API (`2.5` or `onecall3`); nil with Open-Meteo.
    package var owmAPI: String?
    /// The base URL of each upstream by its role: `weather`, `geocoding`, `airQuality`, `nws`, `meteoAlarm`,
    /// `brightSky`, `fpas`, `archive` (the past), `historicalForecast` (the recent past), `metNorway` (its
    /// nowcast) and `ensemble` (how sure the forecast is).
    package var baseURLs: [String: String]
    /// `--upstream-timeout`.
    package var upstreamTimeoutSeconds: Int64
    /// `--cache-ttl`.
    package var cacheTtlSeconds: Int64
    /// `--forecast-ttl`.
    package var forecastTtlSeconds: Int64
    /// A 64-bit FNV-1a digest of the OpenWeatherMap key, to tell two keys apart without showing either; nil
    /// without a key.
    package var owmKeyDigest: String?

    package init(
        provider: String, owmAPI: String?, baseURLs: [String: String], upstreamTimeoutSeconds: Int64,
        cacheTtlSeconds: Int64, forecastTtlSeconds: Int64, owmKeyDigest: String?
    ) {
        self.provider = provider
        self.owmAPI = owmAPI
        self.baseURLs = baseURLs
        self.upstreamTimeoutSeconds = upstreamTimeoutSeconds
        self.cacheTtlSeconds = cacheTtlSeconds
        self.forecastTtlSeconds = forecastTtlSeconds
        self.owmKeyDigest = owmKeyDigest
    }

    /// The settings `configuration` chooses.
    package init(_ configuration: Configuration) {
        let owm = configuration.provider == "openweathermap"
        self.init(
            provider: configuration.provider, owmAPI: owm ? configuration.owmAPI : nil,
            baseURLs: [
                "weather": owm
                    ? configuration.owmBaseURL
                    : configuration.provider == "met-norway"
                        ? configuration.metNorwayBaseURL : configuration.openMeteoBaseURL,
                "geocoding": owm ? configuration.owmBaseURL : configuration.openMeteoGeocodingBaseURL,
                "airQuality": owm ? configuration.owmBaseURL : configuration.openMeteoAirQualityBaseURL,
                "nws": configuration.nwsBaseURL, "meteoAlarm": configuration.meteoAlarmBaseURL,
                "brightSky": configuration.brightSkyBaseURL, "fpas": configuration.fpasBaseURL,
                "archive": configuration.openMeteoArchiveBaseURL,
                "historicalForecast": configuration.openMeteoHistoricalForecastBaseURL,
                "metNorway": configuration.metNorwayBaseURL,
                "ensemble": configuration.openMeteoEnsembleBaseURL,
            ],
            upstreamTimeoutSeconds: configuration.fetch.deadline.components.seconds,
            cacheTtlSeconds: configuration.fetch.ttl.components.seconds,
            forecastTtlSeconds: configuration.fetch.forecastTTL.components.seconds,
            owmKeyDigest: configuration.owmAPIKey.map { Digest.fnv1a(Array($0.utf8)) })
    }
}
