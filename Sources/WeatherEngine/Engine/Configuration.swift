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
    /// `open-meteo` or `openweathermap`.
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
    /// Who to contact about weatherd's NWS requests, sent in their `User-Agent` as NWS asks (`--nws-contact`,
    /// `NWS_CONTACT`): an e-mail address or a URL.
    package var nwsContact: String?
    /// The language official warnings are kept in when the sender gives several (`--warnings-language`, a tag
    /// such as `de` or `fr-BE`); nil: English where given, else the sender's first.
    package var warningsLanguage: String?
    /// MeteoAlarm's feeds (`--meteoalarm-base-url`, `METEOALARM_BASE_URL`).
    package var meteoAlarmBaseURL = "https://feeds.meteoalarm.org"
    /// Open-Meteo's air-quality API (`--open-meteo-air-quality-base-url`, `OPEN_METEO_AIR_QUALITY_BASE_URL`).
    package var openMeteoAirQualityBaseURL = "https://air-quality-api.open-meteo.com"
    /// Time between checks of the official warnings (and air quality) of the places with alerts on
    /// (`--warnings-interval`); nil disables the timer (the checks after each refresh remain).
    package var warningsInterval: Duration? = .seconds(600)
    /// Time between scheduled refreshes of the favorites (`--refresh-interval`); nil disables them.
    package var refreshInterval: Duration? = .seconds(4 * 3600)
    /// Decimals kept of the client's coordinates in the log (`--location-precision`; 2 is about 1 km).
    package var locationPrecision = 2
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
    /// How long the daemon runs on with no connection (`--idle-exit`); nil: until stopped.
    package var idleExit: Duration?
    /// Where the daemon's log lines go instead of stderr (`--log-file`, size-bounded).
    package var logFile: String?

    /// How long the answers to requests already read may take once a client's input has ended: the
    /// upstream deadline and a margin. The relay waits as long for the daemon.
    package var endOfInputGrace: Duration { fetch.deadline + .seconds(5) }

    /// The defaults, with the given data dir.
    package init(dataDirectory: String) { self.dataDirectory = dataDirectory }

    /// The usage text for `--help` and flag errors.
    package static let usage = """
        usage: weatherd [options]               JSON-RPC on stdin/stdout, through the data dir's shared daemon
                                                (started when none runs; it stops after 300 s without clients)
               weatherd --standalone [options]  JSON-RPC on stdin/stdout in this process alone (no socket)
               weatherd serve [options]         the shared daemon: serve the data dir on a Unix socket
               weatherd log verify|dump|stats|compact [--data-dir DIR] …  check, read or compact the log offline
               weatherd --help | --version

        options:
          --data-dir DIR          data directory (else $WEATHERD_DATA_DIR, $XDG_DATA_HOME/weatherd,
                                  ~/.local/share/weatherd)
          --fsync MODE            always (default) | batch | never
          --max-line-bytes N      longest accepted input line (default 1048576)
          --log-level LEVEL       debug | info (default) | warning | error; logs go to stderr
          --command-window N      how many commandIds are remembered (default 100000)
          --provider NAME         open-meteo (default) | openweathermap (default when OWM_API_KEY is set)
          --owm-base-url URL      OpenWeatherMap base URL (else $OWM_BASE_URL)
          --owm-api API           2.5 (default) | onecall3: OpenWeatherMap's weather API (else $OWM_API);
                                  onecall3 (One Call 3.0) adds hourly steps and needs its subscription
          --open-meteo-base-url URL            (else $OPEN_METEO_BASE_URL)
          --open-meteo-geocoding-base-url URL  (else $OPEN_METEO_GEOCODING_BASE_URL)
          --open-meteo-air-quality-base-url URL  (else $OPEN_METEO_AIR_QUALITY_BASE_URL)
          --nws-base-url URL      US National Weather Service alerts (else $NWS_BASE_URL)
          --warnings-language TAG  keep official warnings in this language when the sender gives several
                                  (default: English, else the sender's first)
          --nws-contact TEXT      an e-mail address or URL sent in the User-Agent of NWS requests, as NWS asks
                                  (else $NWS_CONTACT)
          --meteoalarm-base-url URL  MeteoAlarm warning feeds (else $METEOALARM_BASE_URL)
          --cache-ttl SECONDS     serve cached current weather younger than this without a call (default 600)
          --forecast-ttl SECONDS  serve cached forecasts younger than this without a call (default 3600)
          --upstream-timeout SECONDS  overall deadline of one fetch, retries included (default 30)
          --rate-limit N          upstream calls allowed per minute (default 60)
          --max-body-bytes N      the most bytes read of one upstream answer's body (default 16777216, 16 MiB)
          --refresh-interval SECONDS  refresh every favorite this often (default 14400; 0 = never)
          --warnings-interval SECONDS  check the official warnings of the places with alerts on this often
                                  (default 600; 0 = only after refreshes)
          --location-precision N  decimals kept of the client's coordinates in the log (default 2, ~1 km)
          --snapshot-every N      write a state snapshot every N events (default 10000; 0 = only at shutdown)
          --segment-bytes N       roll the log over into a sealed segment at N bytes (default 67108864, 64 MiB)
          --retain-payloads DURATION  strip replaced weather payloads older than this from sealed segments,
                                  keeping every audit fact (default 30d; 0 = as soon as replaced and sealed;
                                  durations are written 90s, 12h, 30d or 0)
          --retain-audit DURATION  drop whole sealed segments whose every event is older than this, recording
                                  log.truncated and keeping their state in log-base.json (default forever)
          --max-favorites N       the most favorites kept (default 100000)
          --socket PATH           the daemon's socket (default $XDG_RUNTIME_DIR/weatherd/<name>.sock, named
                                  after the data dir, else DIR/weatherd.sock)
          --max-connections N     serve: connections served at once (default 64)
          --idle-exit SECONDS     serve: exit after this long without a connection (default: never; 300 when
                                  a client started the daemon)
          --log-file PATH         serve: write log lines to PATH (kept under 1 MiB, then PATH.1) instead of stderr

        environment: OWM_API_KEY (the OpenWeatherMap key; never logged), OWM_API, WEATHERD_DATA_DIR,
                     NWS_CONTACT, the base URLs above
        """

    /// Parses the arguments (without the program name).
    ///
    /// - Throws: `ConfigurationError` naming the flag that is wrong.
    package static func parse(
        _ arguments: [String], environment: [String: String]
    ) throws(ConfigurationError) -> Configuration {
        var config = Configuration(dataDirectory: defaultDataDirectory(environment))
        if let key = environment["OWM_API_KEY"], !key.isEmpty {
            config.owmAPIKey = key
            config.provider = "openweathermap"
        }
        if let url = environment["OWM_BASE_URL"], !url.isEmpty { config.owmBaseURL = url }
        if let api = environment["OWM_API"], !api.isEmpty {
            guard Self.owmAPIs.contains(api) else { throw ConfigurationError("OWM_API must be 2.5 or onecall3") }
            config.owmAPI = api
        }
        if let url = environment["OPEN_METEO_BASE_URL"], !url.isEmpty { config.openMeteoBaseURL = url }
        if let url = environment["OPEN_METEO_GEOCODING_BASE_URL"], !url.isEmpty {
            config.openMeteoGeocodingBaseURL = url
        }
        config.readOfficialSources(environment)
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            var flag = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                flag = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(ConfigurationError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst() else { throw ConfigurationError("\(flag) needs a value") }
                return next
            }
            func number(_ range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
                let text = try value()
                guard let number = Int(text), range.contains(number) else {
                    throw ConfigurationError(
                        "\(flag) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
                }
                return number
            }
            func url() throws(ConfigurationError) -> String {
                let text = try value()
                guard text.hasPrefix("http://") || text.hasPrefix("https://") else {
                    throw ConfigurationError("\(flag) must be an http:// or https:// URL")
                }
                return text
            }
            switch flag {
            case "--data-dir":
                let path = try value()
                guard !path.isEmpty else { throw ConfigurationError("--data-dir must not be empty") }
                config.dataDirectory = path
            case "--fsync":
                let text = try value()
                guard let mode = FsyncMode(rawValue: text) else {
                    throw ConfigurationError("--fsync must be always, batch or never")
                }
                config.fsync = mode
            case "--max-line-bytes": config.maxLineBytes = try number(1024...(1 << 30))
            case "--log-level":
                let text = try value()
                guard let level = Logger.Level(rawValue: text) else {
                    throw ConfigurationError("--log-level must be debug, info, warning or error")
                }
                config.logLevel = level
            case "--command-window": config.commandWindow = try number(1...10_000_000)
            case "--provider":
                let name = try value()
                guard ["open-meteo", "openweathermap"].contains(name) else {
                    throw ConfigurationError("--provider must be open-meteo or openweathermap")
                }
                config.provider = name
            case "--owm-base-url": config.owmBaseURL = try url()
            case "--owm-api":
                let api = try value()
                guard Self.owmAPIs.contains(api) else { throw ConfigurationError("--owm-api must be 2.5 or onecall3") }
                config.owmAPI = api
            case "--open-meteo-base-url": config.openMeteoBaseURL = try url()
            case "--open-meteo-geocoding-base-url": config.openMeteoGeocodingBaseURL = try url()
            case "--open-meteo-air-quality-base-url": config.openMeteoAirQualityBaseURL = try url()
            case "--nws-base-url": config.nwsBaseURL = try url()
            case "--meteoalarm-base-url": config.meteoAlarmBaseURL = try url()
            case "--nws-contact": config.nwsContact = try value()
            case "--warnings-language":
                let tag = try value()
                guard !tag.isEmpty, tag.count <= 35,
                    tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
                else { throw ConfigurationError("--warnings-language must be a language tag such as de or fr-BE") }
                config.warningsLanguage = tag
            case "--warnings-interval":
                let seconds = try number(0...(30 * 86_400))
                config.warningsInterval = seconds == 0 ? nil : .seconds(seconds)
            case "--cache-ttl": config.fetch.ttl = .seconds(try number(0...86_400))
            case "--forecast-ttl": config.fetch.forecastTTL = .seconds(try number(0...86_400))
            case "--upstream-timeout": config.fetch.deadline = .seconds(try number(1...600))
            case "--rate-limit": config.fetch.callsPerMinute = try number(1...100_000)
            case "--max-body-bytes": config.maxBodyBytes = try number(1024...(1 << 30))
            case "--location-precision": config.locationPrecision = try number(0...6)
            case "--snapshot-every": config.snapshotEvery = try number(0...100_000_000)
            case "--max-favorites": config.maxFavorites = try number(1...10_000_000)
            case "--segment-bytes": config.segmentBytes = Int64(try number(1024...(1 << 40)))
            case "--retain-payloads":
                guard let duration = Self.duration(try value()) else {
                    throw ConfigurationError("--retain-payloads must be a duration: 90s, 12h, 30d or 0")
                }
                config.retainPayloads = duration
            case "--retain-audit":
                let text = try value()
                guard text == "forever" || Self.duration(text) != nil else {
                    throw ConfigurationError("--retain-audit must be a duration: 90s, 12h, 30d, 0 or forever")
                }
                config.retainAudit = Self.duration(text)
            case "--refresh-interval":
                let seconds = try number(0...(30 * 86_400))
                config.refreshInterval = seconds == 0 ? nil : .seconds(seconds)
            case "--socket":
                let path = try value()
                guard !path.isEmpty else { throw ConfigurationError("--socket must not be empty") }
                config.socketPath = path
            case "--max-connections": config.maxConnections = try number(1...10_000)
            case "--idle-exit":
                let seconds = try number(0...(365 * 86_400))
                config.idleExit = seconds == 0 ? nil : .seconds(seconds)
            case "--log-file":
                let path = try value()
                guard !path.isEmpty else { throw ConfigurationError("--log-file must not be empty") }
                config.logFile = path
            default: throw ConfigurationError("unknown option \(argument)")
            }
        }
        if config.provider == "openweathermap", config.owmAPIKey == nil {
            throw ConfigurationError(
                "--provider openweathermap needs the API key in the OWM_API_KEY environment variable")
        }
        return config
    }

    /// The values of `--owm-api` and `OWM_API`.
    static let owmAPIs = ["2.5", "onecall3"]

    /// A duration as every retention flag writes it: a whole number followed by `s`, `m`, `h` or `d`, or `0`.
    package static func duration(_ text: String) -> Duration? {
        if text == "0" { return .zero }
        guard let unit = text.last, let count = Int64(text.dropLast()), count >= 0, count <= 100 * 365 * 86_400
        else { return nil }
        switch unit {
        case "s": return .seconds(count)
        case "m": return .seconds(count * 60)
        case "h": return .seconds(count * 3600)
        case "d": return .seconds(count * 86_400)
        default: return nil
        }
    }

    /// A duration as `duration(_:)` reads it, in the largest unit that writes it whole (`30d`, `90s`, `0`).
    package static func durationText(_ duration: Duration) -> String {
        let seconds = duration.components.seconds
        guard seconds > 0 else { return "0" }
        for (unit, size) in [("d", Int64(86_400)), ("h", 3600), ("m", 60)] where seconds % size == 0 {
            return "\(seconds / size)\(unit)"
        }
        return "\(seconds)s"
    }

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
