import EventLog
import Providers
import WeatherDomain

/// The command line as `Configuration.parse` reads it: one flag at a time, with its value either inline
/// (`--flag=value`) or in the next argument.
struct ArgumentReader {
    /// The arguments not read yet.
    private var remaining: ArraySlice<String>
    /// The argument the reader stands on, as given.
    private(set) var argument = ""
    /// The flag the reader stands on: `argument` up to its `=`, if any.
    private(set) var flag = ""
    /// The value given after the flag's `=`, if any.
    private var inlineValue: String?

    /// A reader standing before the first of `arguments`.
    init(_ arguments: [String]) { remaining = arguments[...] }

    /// Moves on to the next argument; false when there is none.
    mutating func next() -> Bool {
        guard let argument = remaining.popFirst() else { return false }
        self.argument = argument
        flag = argument
        inlineValue = nil
        if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
            flag = String(argument[..<equals])
            inlineValue = String(argument[argument.index(after: equals)...])
        }
        return true
    }

    /// The flag's value: the text after its `=`, else the next argument.
    ///
    /// - Throws: `ConfigurationError` when there is neither.
    mutating func value() throws(ConfigurationError) -> String {
        if let inlineValue { return inlineValue }
        guard let next = remaining.popFirst() else { throw ConfigurationError("\(flag) needs a value") }
        return next
    }

    /// The flag's value as a whole number in `range`.
    ///
    /// - Throws: `ConfigurationError` when it is missing, not a whole number or out of `range`.
    mutating func number(_ range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        let text = try value()
        guard let number = Int(text), range.contains(number) else {
            throw ConfigurationError("\(flag) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// The flag's value as an `http://` or `https://` URL.
    ///
    /// - Throws: `ConfigurationError` when it is missing or not such a URL.
    mutating func url() throws(ConfigurationError) -> String {
        let text = try value()
        guard text.hasPrefix("http://") || text.hasPrefix("https://") else {
            throw ConfigurationError("\(flag) must be an http:// or https:// URL")
        }
        return text
    }
}

extension Configuration {
    /// Reads the environment variables these settings come from (flags given later win): `OWM_API_KEY` (which
    /// also makes OpenWeatherMap the provider), `OWM_BASE_URL`, `OWM_API`, the Open-Meteo base URLs and the
    /// official sources' variables.
    ///
    /// - Throws: `ConfigurationError` when `OWM_API` is not one of `owmAPIs`.
    mutating func readEnvironment(_ environment: [String: String]) throws(ConfigurationError) {
        if let key = environment["OWM_API_KEY"], !key.isEmpty {
            owmAPIKey = key
            provider = "openweathermap"
        }
        if let url = environment["OWM_BASE_URL"], !url.isEmpty { owmBaseURL = url }
        if let api = environment["OWM_API"], !api.isEmpty {
            guard Self.owmAPIs.contains(api) else { throw ConfigurationError("OWM_API must be 2.5 or onecall3") }
            owmAPI = api
        }
        if let url = environment["OPEN_METEO_BASE_URL"], !url.isEmpty { openMeteoBaseURL = url }
        if let url = environment["OPEN_METEO_GEOCODING_BASE_URL"], !url.isEmpty {
            openMeteoGeocodingBaseURL = url
        }
        readOfficialSources(environment)
    }

    /// Reads the flag `reader` stands on, and its value, into these settings.
    ///
    /// - Throws: `ConfigurationError` naming the flag when it is unknown or its value is wrong.
    mutating func readFlag(_ reader: inout ArgumentReader) throws(ConfigurationError) {
        if try readLogFlag(&reader) { return }
        if try readProviderFlag(&reader) { return }
        if try readFetchFlag(&reader) { return }
        if try readServiceFlag(&reader) { return }
        if try readMetricsFlag(&reader) { return }
        throw ConfigurationError("unknown option \(reader.argument)")
    }

    /// Reads the flag `reader` stands on when it is about the data dir and its log (`--data-dir`, `--fsync`,
    /// `--command-window`, `--location-precision`, `--snapshot-every`, `--max-favorites`, `--segment-bytes`,
    /// `--retain-payloads`, `--retain-audit`); false when it is another flag.
    private mutating func readLogFlag(_ reader: inout ArgumentReader) throws(ConfigurationError) -> Bool {
        switch reader.flag {
        case "--data-dir":
            let path = try reader.value()
            guard !path.isEmpty else { throw ConfigurationError("--data-dir must not be empty") }
            dataDirectory = path
        case "--fsync":
            let text = try reader.value()
            guard let mode = FsyncMode(rawValue: text) else {
                throw ConfigurationError("--fsync must be always, batch or never")
            }
            fsync = mode
        case "--command-window": commandWindow = try reader.number(1...10_000_000)
        case "--location-precision": locationPrecision = try reader.number(0...6)
        case "--snapshot-every": snapshotEvery = try reader.number(0...100_000_000)
        case "--max-favorites": maxFavorites = try reader.number(1...10_000_000)
        case "--segment-bytes": segmentBytes = Int64(try reader.number(1024...(1 << 40)))
        case "--retain-payloads":
            guard let duration = Self.duration(try reader.value()) else {
                throw ConfigurationError("--retain-payloads must be a duration: 90s, 12h, 30d or 0")
            }
            retainPayloads = duration
        case "--retain-audit":
            let text = try reader.value()
            guard text == "forever" || Self.duration(text) != nil else {
                throw ConfigurationError("--retain-audit must be a duration: 90s, 12h, 30d, 0 or forever")
            }
            retainAudit = Self.duration(text)
        default: return false
        }
        return true
    }

    /// Reads the flag `reader` stands on when it chooses the weather provider or the official sources
    /// (`--provider`, `--owm-api`, the base URLs, `--nws-contact`, `--warnings-language`); false when it is
    /// another flag.
    private mutating func readProviderFlag(_ reader: inout ArgumentReader) throws(ConfigurationError) -> Bool {
        switch reader.flag {
        case "--provider":
            let name = try reader.value()
            guard Self.providers.contains(name) else {
                throw ConfigurationError("--provider must be open-meteo, openweathermap or met-norway")
            }
            provider = name
        case "--owm-base-url": owmBaseURL = try reader.url()
        case "--owm-api":
            let api = try reader.value()
            guard Self.owmAPIs.contains(api) else { throw ConfigurationError("--owm-api must be 2.5 or onecall3") }
            owmAPI = api
        case "--open-meteo-base-url": openMeteoBaseURL = try reader.url()
        case "--open-meteo-geocoding-base-url": openMeteoGeocodingBaseURL = try reader.url()
        case "--open-meteo-air-quality-base-url": openMeteoAirQualityBaseURL = try reader.url()
        case "--open-meteo-archive-base-url": openMeteoArchiveBaseURL = try reader.url()
        case "--open-meteo-historical-forecast-base-url": openMeteoHistoricalForecastBaseURL = try reader.url()
        case "--nws-base-url": nwsBaseURL = try reader.url()
        case "--meteoalarm-base-url": meteoAlarmBaseURL = try reader.url()
        case "--brightsky-base-url": brightSkyBaseURL = try reader.url()
        case "--fpas-base-url": fpasBaseURL = try reader.url()
        case "--contact", "--nws-contact": contact = try reader.value()
        case "--met-norway-base-url": metNorwayBaseURL = try reader.url()
        case "--nowcast-sources":
            let names = try reader.value().split(separator: ",").map { String($0).trimmingWhitespace }
            let sources = names.compactMap(Nowcast.Source.init(rawValue:))
            guard !names.isEmpty, sources.count == names.count, Set(sources).count == sources.count else {
                throw ConfigurationError(
                    "--nowcast-sources must list met-norway, openweathermap or open-meteo, comma-separated")
            }
            nowcastSources = sources
        case "--warnings-language":
            let tag = try reader.value()
            guard !tag.isEmpty, tag.count <= 35,
                tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
            else { throw ConfigurationError("--warnings-language must be a language tag such as de or fr-BE") }
            warningsLanguage = tag
        default: return false
        }
        return true
    }

    /// Reads the flag `reader` stands on when it limits or schedules fetches (`--cache-ttl`, `--forecast-ttl`,
    /// `--upstream-timeout`, `--rate-limit`, `--max-body-bytes`, `--warnings-interval`, `--refresh-interval`,
    /// `--summary-check-interval`);
    /// false when it is another flag.
    private mutating func readFetchFlag(_ reader: inout ArgumentReader) throws(ConfigurationError) -> Bool {
        switch reader.flag {
        case "--cache-ttl": fetch.ttl = .seconds(try reader.number(0...86_400))
        case "--forecast-ttl": fetch.forecastTTL = .seconds(try reader.number(0...86_400))
        case "--upstream-timeout": fetch.deadline = .seconds(try reader.number(1...600))
        case "--rate-limit": fetch.callsPerMinute = try reader.number(1...100_000)
        case "--max-body-bytes": maxBodyBytes = try reader.number(1024...(1 << 30))
        case "--warnings-interval":
            let seconds = try reader.number(0...(30 * 86_400))
            warningsInterval = seconds == 0 ? nil : .seconds(seconds)
        case "--refresh-interval":
            let seconds = try reader.number(0...(30 * 86_400))
            refreshInterval = seconds == 0 ? nil : .seconds(seconds)
        case "--nowcast-check-interval":
            let seconds = try reader.number(0...3600)
            nowcastCheckInterval = seconds == 0 ? nil : .seconds(seconds)
        case "--summary-check-interval":
            let seconds = try reader.number(0...3600)
            summaryCheckInterval = seconds == 0 ? nil : .seconds(seconds)
        default: return false
        }
        return true
    }

    /// Reads the flag `reader` stands on when it is about serving clients and logging (`--max-line-bytes`,
    /// `--log-level`, `--socket`, `--max-connections`, `--idle-exit`, `--log-file`); false when it is another
    /// flag.
    private mutating func readServiceFlag(_ reader: inout ArgumentReader) throws(ConfigurationError) -> Bool {
        switch reader.flag {
        case "--max-line-bytes": maxLineBytes = try reader.number(1024...(1 << 30))
        case "--log-level":
            let text = try reader.value()
            guard let level = Logger.Level(rawValue: text) else {
                throw ConfigurationError("--log-level must be debug, info, warning or error")
            }
            logLevel = level
        case "--socket":
            let path = try reader.value()
            guard !path.isEmpty else { throw ConfigurationError("--socket must not be empty") }
            socketPath = path
        case "--max-connections": maxConnections = try reader.number(1...10_000)
        case "--idle-exit":
            let seconds = try reader.number(0...(365 * 86_400))
            idleExit = seconds == 0 ? nil : .seconds(seconds)
        case "--log-file":
            let path = try reader.value()
            guard !path.isEmpty else { throw ConfigurationError("--log-file must not be empty") }
            logFile = path
        default: return false
        }
        return true
    }
}
