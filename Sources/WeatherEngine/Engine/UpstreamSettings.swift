import WeatherDomain

/// What a daemon's answers from upstream depend on: the provider, the base URL of each upstream, the fetch
/// deadline, the cache ages, and which OpenWeatherMap key it calls with (as a digest, never the key). A
/// client compares its own with the running daemon's, which keeps those it was started with.
package struct UpstreamSettings: Sendable, Equatable {
    /// `open-meteo`, `openweathermap` or `met-norway`.
    package var provider: String
    /// OpenWeatherMap's weather API (`2.5` or `onecall3`); nil with Open-Meteo.
    package var owmAPI: String?
    /// The base URL of each upstream by its role: `weather`, `geocoding`, `airQuality`, `nws`, `meteoAlarm`.
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
            ],
            upstreamTimeoutSeconds: configuration.fetch.deadline.components.seconds,
            cacheTtlSeconds: configuration.fetch.ttl.components.seconds,
            forecastTtlSeconds: configuration.fetch.forecastTTL.components.seconds,
            owmKeyDigest: configuration.owmAPIKey.map { Digest.fnv1a(Array($0.utf8)) })
    }

    /// The roles of `baseURLs` in the order they are shown, each with the flag that sets it for each provider
    /// (MET Norway's are Open-Meteo's but for `weather`, `--met-norway-base-url`).
    package static let roles: [(role: String, openMeteo: String, openWeatherMap: String)] = [
        ("weather", "--open-meteo-base-url", "--owm-base-url"),
        ("geocoding", "--open-meteo-geocoding-base-url", "--owm-base-url"),
        ("airQuality", "--open-meteo-air-quality-base-url", "--owm-base-url"),
        ("nws", "--nws-base-url", "--nws-base-url"), ("meteoAlarm", "--meteoalarm-base-url", "--meteoalarm-base-url"),
        ("brightSky", "--brightsky-base-url", "--brightsky-base-url"), ("fpas", "--fpas-base-url", "--fpas-base-url"),
    ]

    /// What differs in `daemon`'s settings from these, each named by the flag or variable that sets it, with
    /// the daemon's value and this one (but for the key, named only).
    package func differences(from daemon: UpstreamSettings) -> [String] {
        var found: [String] = []
        func compare(_ name: String, _ there: String?, _ here: String?) {
            if there != here { found.append("\(name) (daemon: \(there ?? "none"), here: \(here ?? "none"))") }
        }
        compare("--provider", daemon.provider, provider)
        if daemon.provider == provider { compare("--owm-api", daemon.owmAPI, owmAPI) }
        for role in Self.roles where daemon.provider == provider {
            let flag =
                provider == "openweathermap"
                ? role.openWeatherMap
                : provider == "met-norway" && role.role == "weather" ? "--met-norway-base-url" : role.openMeteo
            if !found.contains(where: { $0.hasPrefix(flag + " ") }) {
                compare(flag, daemon.baseURLs[role.role], baseURLs[role.role])
            }
        }
        compare("--upstream-timeout", "\(daemon.upstreamTimeoutSeconds) s", "\(upstreamTimeoutSeconds) s")
        compare("--cache-ttl", "\(daemon.cacheTtlSeconds) s", "\(cacheTtlSeconds) s")
        compare("--forecast-ttl", "\(daemon.forecastTtlSeconds) s", "\(forecastTtlSeconds) s")
        if daemon.owmKeyDigest != owmKeyDigest {
            found.append(
                daemon.owmKeyDigest == nil
                    ? "OWM_API_KEY (the daemon has none)"
                    : owmKeyDigest == nil ? "OWM_API_KEY (only the daemon has one)" : "OWM_API_KEY (another key)")
        }
        return found
    }
}
