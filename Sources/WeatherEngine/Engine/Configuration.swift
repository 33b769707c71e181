import EventLog
import Providers
import WeatherDomain

/// weatherd's settings from flags and environment variables.
package struct Configuration: Sendable, Equatable {
    package var dataDirectory: String
    package var fsync: FsyncMode = .always
    package var maxLineBytes = 1 << 20
    package var logLevel: Logger.Level = .info
    package var commandWindow = 100_000
    /// `open-meteo`, `openweathermap` or `met-norway` (`providers`).
    package var provider = "open-meteo"
    /// The OpenWeatherMap key, from `OWM_API_KEY` only (a flag would show it in `ps`).
    package var owmAPIKey: String?
    package var owmBaseURL = "https://api.openweathermap.org"
    /// Which OpenWeatherMap weather API the `openweathermap` provider calls (`--owm-api`, `OWM_API`): `2.5`
    /// (current weather and the 5-day / 3-hour forecast) or `onecall3` (One Call 3.0, with hourly steps).
    package var owmAPI = "2.5"
    package var openMeteoBaseURL = "https://api.open-meteo.com"
    package var openMeteoGeocodingBaseURL = "https://geocoding-api.open-meteo.com"
    /// The US National Weather Service's API (`--nws-base-url`, `NWS_BASE_URL`).
    package var nwsBaseURL = "https://api.weather.gov"
    /// Who to contact about weatherd's requests, sent in the `User-Agent` where a provider asks for one (NWS,
    /// MET Norway): an e-mail address or a URL (`--contact`, `WEATHERD_CONTACT`; `--nws-contact` and
    /// `NWS_CONTACT` are older names of the same).
    package var contact: String?
    /// Open-Meteo's Historical Weather API, ERA5 from 1940 (`--open-meteo-archive-base-url`,
    /// `OPEN_METEO_ARCHIVE_BASE_URL`).
    package var openMeteoArchiveBaseURL = "https://archive-api.open-meteo.com"
    /// Open-Meteo's Historical Forecast API, for the recent days ERA5 lacks (`--open-meteo-historical-forecast-base-url`,
    /// `OPEN_METEO_HISTORICAL_FORECAST_BASE_URL`).
    package var openMeteoHistoricalForecastBaseURL = "https://historical-forecast-api.open-meteo.com"
    /// Open-Meteo's Ensemble API, for how sure a forecast is (`--open-meteo-ensemble-base-url`,
    /// `OPEN_METEO_ENSEMBLE_BASE_URL`).
    package var openMeteoEnsembleBaseURL = "https://ensemble-api.open-meteo.com"
    /// The ensemble model `weather/confidence` asks Open-Meteo for (`--ensemble-model`).
    package var ensembleModel = OpenMeteoEnsemble.defaultModel
    /// MET Norway's API (`--met-norway-base-url`, `MET_NORWAY_BASE_URL`).
    package var metNorwayBaseURL = "https://api.met.no"
    /// The nowcast sources allowed, in the order they are tried (`--nowcast-sources`).
    package var nowcastSources: [Nowcast.Source] = Nowcast.Source.allCases
    /// The language official warnings are kept in when the sender gives several (`--warnings-language`, a tag
    /// such as `de` or `fr-BE`); nil: English where given, else the sender's first.
    package var warningsLanguage: String?
    /// MeteoAlarm's feeds (`--meteoalarm-base-url`, `METEOALARM_BASE_URL`).
    package var meteoAlarmBaseURL = "https://feeds.meteoalarm.org"
    /// Bright Sky's API, the DWD's warnings for Germany by municipality (`--brightsky-base-url`,
    /// `BRIGHTSKY_BASE_URL`).
    package var brightSkyBaseURL = "https://api.brightsky.dev"
    /// KDE's FOSS Public Alert Server, or a self-hosted instance (`--fpas-base-url`, `FPAS_BASE_URL`).
    package var fpasBaseURL = "https://alerts.kde.org"
    /// Open-Meteo's air-quality API (`--open-meteo-air-quality-base-url`, `OPEN_METEO_AIR_QUALITY_BASE_URL`).
    package var openMeteoAirQualityBaseURL = "https://air-quality-api.open-meteo.com"
    /// Time between checks of the official warnings (and air quality) of the places with alerts on
    /// (`--warnings-interval`); nil disables the timer (the checks after each refresh remain).
    package var warningsInterval: Duration? = .seconds(600)
    /// Time between checks whether a daily summary is due (`--summary-check-interval`); nil never raises one.
    package var summaryCheckInterval: Duration? = .seconds(60)
    /// Time between checks which watched places' nowcasts are due (`--nowcast-check-interval`); nil never
    /// refreshes a nowcast unasked.
    package var nowcastCheckInterval: Duration? = .seconds(30)
    /// Time between scheduled refreshes of the favorites (`--refresh-interval`); nil disables them.
    package var refreshInterval: Duration? = .seconds(4 * 3600)
    /// Whether the log records `service.started` when the engine's log service starts and `service.stopped` when
    /// it stops. Always on in weatherd; the in-process test harness turns it off, so that a test's first event is
    /// seq 1.
    package var lifecycleEvents = true
    /// Decimals kept of the client's coordinates in the log (`--location-precision`; 2 is about 1 km).
    package var locationPrecision = 2
    /// Whether a request with no place and no location set finds the machine's location (`--auto-location
    /// on|off`): GeoClue on the system bus, else the time zone's city. nil: each face's default, on for the
    /// commands and bars, off for JSON-RPC and MCP clients (which ask with `autoLocation`).
    package var autoLocation: Bool?
    /// Events between periodic snapshots (`--snapshot-every`); 0 writes one only at clean shutdown.
    package var snapshotEvery = 10_000
    /// The size at which the active log file rolls over into a sealed segment (`--segment-bytes`).
    package var segmentBytes: Int64 = 64 << 20
    /// How long replaced weather payloads stay in sealed segments before compaction strips them
    /// (`--retain-payloads`).
    package var retainPayloads: Duration = .seconds(30 * 86_400)
    /// How long whole sealed segments are kept before audit retention drops them, recording `log.truncated`
    /// (`--retain-audit`); nil keeps the whole log forever.
    package var retainAudit: Duration?
    /// The most favorites kept (`--max-favorites`); adding past it is refused with `too_many_favorites`.
    package var maxFavorites = FavoritesDecisions.defaultMaxCount
    /// Live events a follower of the log (alert rules, an event feed) may fall behind the bus by before it
    /// reads what it missed from the log instead (no flag: tests make it small).
    package var followerCapacity = 10_000
    /// The fetch limits (`--cache-ttl`, `--forecast-ttl`, `--upstream-timeout`, `--rate-limit`).
    package var fetch = FetchPolicy()
    /// The most bytes read of one upstream answer's body (`--max-body-bytes`); past it the call fails as a
    /// `bad_upstream_response` without reading on.
    package var maxBodyBytes = HTTPTransport.defaultMaxBodyBytes
    /// The daemon's socket (`--socket`); nil: the default path for the data dir.
    package var socketPath: String?
    /// The most connections the daemon serves at once (`--max-connections`).
    package var maxConnections = 64
    /// The unread output bytes at which the daemon cuts a connection that does not read
    /// (`--max-unread-output-bytes`).
    package var maxUnreadOutputBytes = 16 << 20
    /// How long the daemon runs on with no connection (`--idle-exit`); nil: until stopped.
    package var idleExit: Duration?
    /// Where the daemon's log lines go instead of stderr (`--log-file`, size-bounded).
    package var logFile: String?
    /// Where `weatherd serve` answers HTTP, `GET /metrics` among it (`--http-listen`, `--metrics-listen`); nil:
    /// nowhere.
    package var httpListen: MetricsEndpoint?
    /// Whether `httpListen` may be an address other hosts reach (`--http-allow-remote`); every request then
    /// needs the token.
    package var httpAllowRemote = false
    /// Whether `GET /metrics` answers without the token (`--metrics-public`): its labels name the places weatherd
    /// keeps, so it needs the token unless this says otherwise.
    package var metricsPublic = false
    /// Names besides the loopback's that a request's `Host` may give (`--http-host`, lowercased): the names the
    /// listener is reached by, the rest refused against DNS rebinding.
    package var httpHosts: [String] = []
    /// Where `weatherd serve` ships its log (`--nats`); nil: nowhere.
    package var nats: NATSURL?
    /// The JetStream stream it ships to (`--nats-stream`).
    package var natsStream = "WEATHERD"
    /// The subjects' first tokens (`--nats-subject-prefix`): the log goes to `<prefix>.<log id>`.
    package var natsSubjectPrefix = "weatherd"
    /// A file with the user and password, or the token, for the NATS server (`--nats-credentials`).
    package var natsCredentials: String?
    /// The names of the options given by a flag or an environment variable rather than left at their default
    /// (`Option.name`): only those are compared with a running daemon's.
    package var explicit: Set<String> = []

    /// How long the answers to requests already read may take once a client's input has ended: the
    /// upstream deadline and a margin. The relay waits as long for the daemon.
    package var endOfInputGrace: Duration { fetch.deadline + .seconds(5) }

    /// The defaults, with the given data dir.
    package init(dataDirectory: String) { self.dataDirectory = dataDirectory }

    /// Parses the arguments (without the program name): the defaults, then the environment variables, then
    /// the flags (`Configuration.table`).
    ///
    /// - Throws: `ConfigurationError` naming the flag or variable that is wrong.
    package static func parse(
        _ arguments: [String], environment: [String: String]
    ) throws(ConfigurationError) -> Configuration {
        var config = Configuration(dataDirectory: defaultDataDirectory(environment))
        do throws(OptionError) {
            let scanned = try ScannedArguments(arguments, options: table.shapes)
            if let extra = scanned.positional.first { throw OptionError("unexpected argument \(extra)") }
            config.explicit = try table.readEnvironment(environment, into: &config)
            config.explicit.formUnion(try table.read(scanned.given, into: &config))
        } catch {
            throw ConfigurationError(error.description)
        }
        try config.checkHTTPEndpoint()
        if config.provider == "openweathermap", config.owmAPIKey == nil {
            throw ConfigurationError(
                "--provider openweathermap needs the API key in the OWM_API_KEY environment variable")
        }
        if config.provider == "met-norway", (config.contact ?? "").trimmingWhitespace.isEmpty {
            throw ConfigurationError(
                "--provider met-norway needs a contact: MET Norway's terms require every client to name itself and "
                    + "a way to reach its operator in the User-Agent, and it blocks those that do not; give an "
                    + "e-mail address or URL with --contact (or WEATHERD_CONTACT)")
        }
        return config
    }

    /// The values of `--provider`.
    static let providers = ["open-meteo", "openweathermap", "met-norway"]

    /// The values of `--owm-api` and `OWM_API`.
    static let owmAPIs = ["2.5", "onecall3"]

    /// A duration as every retention flag writes it: a whole number followed by `s`, `m`, `h` or `d`, or `0`.
    package static func duration(_ text: String) -> Duration? { Duration.retention(text) }

    /// A duration as `duration(_:)` reads it, in the largest unit that writes it whole (`30d`, `90s`, `0`).
    package static func durationText(_ duration: Duration) -> String { Duration.retentionText(duration) }

    /// `$WEATHERD_DATA_DIR`, else `$XDG_DATA_HOME/weatherd`, else `~/.local/share/weatherd`.
    package static func defaultDataDirectory(_ environment: [String: String]) -> String {
        if let path = environment["WEATHERD_DATA_DIR"], !path.isEmpty { return path }
        if let path = environment["XDG_DATA_HOME"], !path.isEmpty { return path + "/weatherd" }
        return (environment["HOME"] ?? ".") + "/.local/share/weatherd"
    }
}

/// A flag that is wrong, with a message that names it.
package struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    package var description: String

    package init(_ description: String) { self.description = description }
}
