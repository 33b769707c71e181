import EventLog
import WeatherDomain

extension Configuration {
    /// Every option of weatherd's own, in the order `weatherd --help` lists them: parsing, the help, the shell
    /// completions, "did you mean" and the comparison with a running daemon's settings all come from here.
    ///
    /// A new option is one declaration here: its flag, its environment variable (if any), where it goes, its
    /// value's parser (`OptionValue`), its help line, and whether a daemon holds it (`.daemon`: `service/status`
    /// shows it and a client giving another value is told so).
    package static let table = OptionTable(
        storageOptions + providerOptions + sourceOptions + fetchOptions + servingOptions)

    /// The settings before any option: the defaults help shows.
    private static let defaults = Configuration(dataDirectory: "")

    /// The data dir, its log and its snapshots.
    private static let storageOptions: [Option<Configuration>] = [
        Option(
            "--data-dir", environment: ["WEATHERD_DATA_DIR"], at: \.dataDirectory, .path("DIR", .directory),
            help: "the data directory", defaults: defaults,
            defaultText: "$XDG_DATA_HOME/weatherd, else ~/.local/share/weatherd"),
        Option(
            "--fsync", at: \.fsync, .cases(FsyncMode.self),
            help: "when a change is answered: after fdatasync (always), after write with a sync at most every 100 ms "
                + "(batch), or leaving it to the OS (never)", defaults: defaults, holding: .daemon),
        Option(
            "--max-line-bytes", at: \.maxLineBytes, .integer(1024...(1 << 30)), help: "the longest input line accepted",
            defaults: defaults, holding: .daemon),
        Option(
            "--log-level", at: \.logLevel, .cases(Logger.Level.self), help: "what is logged, to stderr",
            defaults: defaults, holding: .daemon),
        Option(
            "--command-window", at: \.commandWindow, .integer(1...10_000_000),
            help: "how many commandIds are remembered", defaults: defaults, holding: .daemon),
        Option(
            "--location-precision", at: \.locationPrecision, .integer(0...6),
            help: "decimals kept of the client's coordinates in the log (2 is about 1 km)", defaults: defaults,
            holding: .daemon),
        Option(
            "--auto-location", at: \.autoLocation,
            OptionValue<String>.choice(["on", "off"]).map({ $0 == "on" }, back: { $0 ? "on" : "off" }).optional,
            help: "with no location set, find the machine's (GeoClue, else the time zone's principal city, "
                + "approximate); default on for the commands and bars, off for JSON-RPC and MCP clients",
            defaults: defaults, holding: .daemon),
        Option(
            "--snapshot-every", at: \.snapshotEvery, .integer(0...100_000_000),
            help: "write a state snapshot every N events (0: only at shutdown)", defaults: defaults, holding: .daemon),
        Option(
            "--segment-bytes", at: \.segmentBytes,
            .integer(1024...(1 << 40)).map({ Int64($0) }, back: { Int($0) }),
            help: "roll the log over into a sealed segment at N bytes", defaults: defaults,
            defaultText: "67108864, 64 MiB", holding: .daemon),
        Option(
            "--retain-payloads", at: \.retainPayloads, .duration,
            help: "strip replaced weather payloads older than this from sealed segments, keeping every audit fact "
                + "(durations are written 90s, 12h, 30d or 0)", defaults: defaults, holding: .daemon),
        Option(
            "--retain-audit", at: \.retainAudit, .durationOrForever,
            help: "drop whole sealed segments whose every event is older than this, recording log.truncated and "
                + "keeping their state in log-base.json", defaults: defaults, holding: .daemon),
        Option(
            "--max-favorites", at: \.maxFavorites, .integer(1...10_000_000), help: "the most favorites kept",
            defaults: defaults, holding: .daemon),
    ]

    /// The weather provider.
    private static let providerOptions: [Option<Configuration>] = [
        Option(
            "--provider", at: \.provider, .choice(providers),
            help: "the weather provider (openweathermap when OWM_API_KEY is set; met-norway, MET Norway's "
                + "Locationforecast, needs --contact)", defaults: defaults, holding: .daemon),
        Option(
            flags: [], environment: ["OWM_API_KEY"], value: .text("KEY").optional,
            help: "the OpenWeatherMap key, read from the environment only and never logged; it makes "
                + "openweathermap the provider", defaultText: nil, holding: .daemonSecret,
            get: { $0.owmAPIKey.map { Digest.fnv1a(Array($0.utf8)) } },
            set: { configuration, key in
                configuration.owmAPIKey = key
                configuration.provider = "openweathermap"
            }),
        Option(
            "--owm-api", environment: ["OWM_API"], at: \.owmAPI, .choice(owmAPIs),
            help: "OpenWeatherMap's weather API: onecall3 (One Call 3.0) adds hourly steps and needs its "
                + "subscription", defaults: defaults, holding: .daemon),
        Option(
            "--owm-base-url", environment: ["OWM_BASE_URL"], at: \.owmBaseURL, .url, help: "OpenWeatherMap",
            defaults: defaults, holding: .daemon),
        Option(
            "--open-meteo-base-url", environment: ["OPEN_METEO_BASE_URL"], at: \.openMeteoBaseURL, .url,
            help: "Open-Meteo's forecasts", defaults: defaults, holding: .daemon),
        Option(
            "--open-meteo-geocoding-base-url", environment: ["OPEN_METEO_GEOCODING_BASE_URL"],
            at: \.openMeteoGeocodingBaseURL, .url, help: "Open-Meteo's geocoding", defaults: defaults,
            holding: .daemon),
        Option(
            "--met-norway-base-url", environment: ["MET_NORWAY_BASE_URL"], at: \.metNorwayBaseURL, .url,
            help: "MET Norway's API (the forecast and the nowcast)", defaults: defaults, holding: .daemon),
        Option(
            "--contact", "--nws-contact", environment: ["NWS_CONTACT", "WEATHERD_CONTACT"], at: \.contact,
            .text("TEXT").optional,
            help: "an e-mail address or URL sent in the User-Agent where a provider asks for one (NWS, MET "
                + "Norway); MET Norway is not called without it", defaults: defaults, holding: .daemon),
    ]

    /// The sources beside the forecast: air quality, the past, the nowcast, official warnings.
    private static let sourceOptions: [Option<Configuration>] = [
        Option(
            "--open-meteo-air-quality-base-url", environment: ["OPEN_METEO_AIR_QUALITY_BASE_URL"],
            at: \.openMeteoAirQualityBaseURL, .url, help: "Open-Meteo's air quality", defaults: defaults,
            holding: .daemon),
        Option(
            "--open-meteo-archive-base-url", environment: ["OPEN_METEO_ARCHIVE_BASE_URL"],
            at: \.openMeteoArchiveBaseURL, .url, help: "the past and the climate: Open-Meteo's ERA5 from 1940",
            defaults: defaults, holding: .daemon),
        Option(
            "--open-meteo-historical-forecast-base-url", environment: ["OPEN_METEO_HISTORICAL_FORECAST_BASE_URL"],
            at: \.openMeteoHistoricalForecastBaseURL, .url,
            help: "the recent days ERA5 lacks: Open-Meteo's historical forecasts", defaults: defaults,
            holding: .daemon),
        Option(
            "--open-meteo-ensemble-base-url", environment: ["OPEN_METEO_ENSEMBLE_BASE_URL"],
            at: \.openMeteoEnsembleBaseURL, .url, help: "how sure the forecast is: Open-Meteo's ensembles",
            defaults: defaults, holding: .daemon),
        Option(
            "--ensemble-model", at: \.ensembleModel, .modelName,
            help: "the ensemble model asked for the forecast's spread (Open-Meteo's name, such as gfs025 or "
                + "icon_seamless)", defaults: defaults, holding: .daemon),
        Option(
            "--nowcast-sources", at: \.nowcastSources, .nowcastSources,
            help: "where the next hour's precipitation comes from, tried in order", defaults: defaults,
            holding: .daemon),
        Option(
            "--nws-base-url", environment: ["NWS_BASE_URL"], at: \.nwsBaseURL, .url,
            help: "the US National Weather Service's alerts", defaults: defaults, holding: .daemon),
        Option(
            "--meteoalarm-base-url", environment: ["METEOALARM_BASE_URL"], at: \.meteoAlarmBaseURL, .url,
            help: "MeteoAlarm's warning feeds", defaults: defaults, holding: .daemon),
        Option(
            "--brightsky-base-url", environment: ["BRIGHTSKY_BASE_URL"], at: \.brightSkyBaseURL, .url,
            help: "Bright Sky, the DWD's warnings for Germany by municipality", defaults: defaults,
            holding: .daemon),
        Option(
            "--fpas-base-url", environment: ["FPAS_BASE_URL"], at: \.fpasBaseURL, .url,
            help: "KDE's FOSS Public Alert Server, official warnings elsewhere (in beta)", defaults: defaults,
            holding: .daemon),
        Option(
            "--warnings-language", at: \.warningsLanguage, .languageTag.optional,
            help: "the language official warnings are kept in when the sender gives several", defaults: defaults,
            defaultText: "English, else the sender's first", holding: .daemon),
    ]

    /// The limits and the timers of fetching.
    private static let fetchOptions: [Option<Configuration>] = [
        Option(
            "--cache-ttl", at: \.fetch.ttl, .seconds(0...86_400),
            help: "serve cached current weather younger than this without a call", defaults: defaults,
            holding: .daemon),
        Option(
            "--forecast-ttl", at: \.fetch.forecastTTL, .seconds(0...86_400),
            help: "serve cached forecasts younger than this without a call", defaults: defaults, holding: .daemon),
        Option(
            "--upstream-timeout", at: \.fetch.deadline, .seconds(1...600),
            help: "the overall deadline of one fetch, retries included", defaults: defaults, holding: .daemon),
        Option(
            "--rate-limit", at: \.fetch.callsPerMinute, .integer(1...100_000),
            help: "upstream calls allowed per minute", defaults: defaults, holding: .daemon),
        Option(
            "--max-body-bytes", at: \.maxBodyBytes, .integer(1024...(1 << 30)),
            help: "the most bytes read of one upstream answer's body", defaults: defaults,
            defaultText: "16777216, 16 MiB", holding: .daemon),
        Option(
            "--refresh-interval", at: \.refreshInterval, .secondsOrNever(0...(30 * 86_400)),
            help: "refresh every favorite this often (0: never)", defaults: defaults, holding: .daemon),
        Option(
            "--warnings-interval", at: \.warningsInterval, .secondsOrNever(0...(30 * 86_400)),
            help: "check the official warnings of the places with alerts on this often (0: only after refreshes)",
            defaults: defaults, holding: .daemon),
        Option(
            "--summary-check-interval", at: \.summaryCheckInterval, .secondsOrNever(0...3600),
            help: "check whether a daily summary is due this often (0: never raise one)", defaults: defaults,
            holding: .daemon),
        Option(
            "--nowcast-check-interval", at: \.nowcastCheckInterval, .secondsOrNever(0...3600),
            help: "check which watched places' nowcasts are due this often (0: never refresh them unasked)",
            defaults: defaults, holding: .daemon),
    ]

    /// The shared daemon (`weatherd serve`) and its listeners.
    private static let servingOptions: [Option<Configuration>] = [
        Option(
            "--socket", at: \.socketPath, .path("PATH", .file).optional, help: "the daemon's socket",
            defaults: defaults,
            defaultText: "$XDG_RUNTIME_DIR/weatherd/<name>.sock, named after the data dir, else DIR/weatherd.sock"),
        Option(
            "--max-connections", at: \.maxConnections, .integer(1...10_000), help: "serve: connections served at once",
            defaults: defaults, holding: .daemon),
        Option(
            "--max-unread-output-bytes", at: \.maxUnreadOutputBytes, .integer(65536...(1 << 30)),
            help: "serve: cut a connection once this much of its output waits unread", defaults: defaults,
            defaultText: "16777216, 16 MiB", holding: .daemon),
        Option(
            "--idle-exit", at: \.idleExit, .secondsOrNever(0...(365 * 86_400)),
            help: "serve: exit after this long without a connection (0: never)", defaults: defaults,
            defaultText: "never; 300 when a client started the daemon", holding: .daemon),
        Option(
            "--log-file", at: \.logFile, .path("PATH", .file).optional,
            help: "serve: write log lines to PATH (kept under 1 MiB, then PATH.1) instead of stderr",
            defaults: defaults, defaultText: "stderr; DIR/weatherd.log when a client started the daemon",
            holding: .daemon),
        Option(
            "--http-listen", "--metrics-listen", at: \.httpListen, .httpEndpoint.optional,
            help: "serve: answer HTTP at this address (port 9466 when left out): GET /metrics (Prometheus), "
                + "wttr.in's URLs, the /v1 JSON API, /v1/events and /mcp (GET /:help lists them); loopback only "
                + "unless --http-allow-remote",
            defaults: defaults,
            holding: .daemon),
        Option(
            "--http-allow-remote", "--metrics-allow-remote", at: \.httpAllowRemote, .on,
            help: "serve: let --http-listen take an address other hosts reach; every request then needs the "
                + "token in DIR/http-token (Authorization: Bearer)", defaults: defaults, holding: .daemon),
        Option(
            "--metrics-public", at: \.metricsPublic, .on,
            help: "serve: answer GET /metrics without the token (its labels name your places)", defaults: defaults,
            holding: .daemon),
        Option(
            "--http-host", at: \.httpHosts, .hostNames,
            help: "serve: names a request's Host may give besides localhost, 127.0.0.1 and [::1] (comma-separated; "
                + "others are refused against DNS rebinding)", defaults: defaults, holding: .daemon),
        Option(
            "--nats", environment: ["WEATHERD_NATS"], at: \.nats, .natsURL.optional,
            help: "serve: ship every committed event to this NATS server's JetStream, exactly once and in order; "
                + "restore and events: read the log(s) from it",
            defaults: defaults, holding: .daemon),
        Option(
            "--nats-stream", environment: ["WEATHERD_NATS_STREAM"], at: \.natsStream, .streamName,
            help: "serve, restore, events: the JetStream stream the log is shipped to (created if absent)",
            defaults: defaults,
            holding: .daemon),
        Option(
            "--nats-subject-prefix", environment: ["WEATHERD_NATS_SUBJECT_PREFIX"], at: \.natsSubjectPrefix,
            .subjectPrefix, help: "serve, restore, events: the log's events go to PREFIX.<log id>", defaults: defaults,
            holding: .daemon),
        Option(
            "--nats-credentials", environment: ["WEATHERD_NATS_CREDENTIALS"], at: \.natsCredentials,
            .path("FILE", .file).optional,
            help: "serve, restore, events: a file with user= and password= lines, or a token= line, for the NATS "
                + "server",
            defaults: defaults, holding: .daemon),
    ]
}

extension OptionValue {
    /// `--nowcast-sources`: sources of `Nowcast.Source`, comma-separated, each at most once.
    static var nowcastSources: OptionValue<[Nowcast.Source]> {
        let names = Nowcast.Source.allCases.map(\.rawValue)
        return OptionValue<[Nowcast.Source]>(
            placeholder: "LIST", completion: .choices(names),
            read: { text throws(OptionRefusal) in
                let given = text.split(separator: ",").map { String($0).trimmingWhitespace }
                let sources = given.compactMap(Nowcast.Source.init(rawValue:))
                guard !given.isEmpty, sources.count == given.count, Set(sources).count == sources.count else {
                    throw OptionRefusal("must list \(either(names)), comma-separated")
                }
                return sources
            }, write: { $0.map(\.rawValue).joined(separator: ",") })
    }

    /// `--warnings-language`: a language tag such as `de` or `fr-BE`.
    static var languageTag: OptionValue<String> {
        OptionValue<String>(
            placeholder: "TAG",
            read: { tag throws(OptionRefusal) in
                guard !tag.isEmpty, tag.count <= 35,
                    tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
                else { throw OptionRefusal("must be a language tag such as de or fr-BE") }
                return tag
            }, write: { $0 })
    }

    /// `--http-host`: host names, comma-separated, each a DNS name or an address, kept lowercased.
    static var hostNames: OptionValue<[String]> {
        OptionValue<[String]>(
            placeholder: "NAME[,NAME…]",
            read: { text throws(OptionRefusal) in
                let names = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.lowercased() }
                guard !names.isEmpty else { throw OptionRefusal("needs at least one host name") }
                for name in names {
                    guard !name.isEmpty, name.count <= 253,
                        name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.:[]".contains($0)) })
                    else { throw OptionRefusal("\(name) is not a host name (letters, digits, - . : [ ])") }
                }
                return names
            }, write: { $0.isEmpty ? nil : $0.joined(separator: ",") })
    }

    /// `--http-listen`: `HOST[:PORT]` (`MetricsEndpoint.parse`).
    static var httpEndpoint: OptionValue<MetricsEndpoint> {
        OptionValue<MetricsEndpoint>(
            placeholder: "HOST:PORT", read: { text throws(OptionRefusal) in try MetricsEndpoint.endpoint(text) },
            write: \.description)
    }
}
