import Testing
import WeatherEngine
import WeatherService

@Suite("Configuration")
struct ConfigurationTests {
    @Test("flags override the environment, in both --flag value and --flag=value forms")
    func flags() throws {
        let config = try Configuration.parse(
            [
                "--data-dir", "/d", "--fsync=batch", "--max-line-bytes", "4096", "--log-level=debug",
                "--command-window", "7", "--snapshot-every", "500",
            ],
            environment: ["WEATHERD_DATA_DIR": "/env"])
        #expect(config.dataDirectory == "/d")
        #expect(config.fsync == .batch)
        #expect(config.maxLineBytes == 4096)
        #expect(config.logLevel == .debug)
        #expect(config.commandWindow == 7)
        #expect(config.snapshotEvery == 500)
    }

    @Test("the archive's base URL: Open-Meteo's by default, else OPEN_METEO_ARCHIVE_BASE_URL, else the flag")
    func archiveBaseURL() throws {
        #expect(
            try Configuration.parse([], environment: [:]).openMeteoArchiveBaseURL
                == "https://archive-api.open-meteo.com")
        let environment = ["OPEN_METEO_ARCHIVE_BASE_URL": "http://env.test"]
        #expect(try Configuration.parse([], environment: environment).openMeteoArchiveBaseURL == "http://env.test")
        let flagged = try Configuration.parse(
            ["--open-meteo-archive-base-url", "http://flag.test/"], environment: environment)
        #expect(flagged.makeOfficialSources().archive.baseURL == "http://flag.test")
    }

    @Test("the historical forecast's base URL: Open-Meteo's by default, else its environment variable, else the flag")
    func historicalForecastBaseURL() throws {
        let sources = try Configuration.parse([], environment: [:]).makeOfficialSources()
        #expect(sources.historicalForecast.baseURL == "https://historical-forecast-api.open-meteo.com")
        #expect(sources.historicalForecast.path == "/v1/forecast")
        let environment = ["OPEN_METEO_HISTORICAL_FORECAST_BASE_URL": "http://env.test"]
        #expect(
            try Configuration.parse([], environment: environment).openMeteoHistoricalForecastBaseURL
                == "http://env.test")
        let flagged = try Configuration.parse(
            ["--open-meteo-historical-forecast-base-url", "http://flag.test/"], environment: environment)
        #expect(flagged.makeOfficialSources().historicalForecast.baseURL == "http://flag.test")
    }

    @Test("snapshots are written every 10,000 events by default, and --snapshot-every 0 keeps only the shutdown one")
    func snapshotEvery() throws {
        #expect(try Configuration.parse([], environment: [:]).snapshotEvery == 10_000)
        #expect(try Configuration.parse(["--snapshot-every=0"], environment: [:]).snapshotEvery == 0)
    }

    @Test("upstream bodies are read up to 16 MiB by default; --max-body-bytes sets another limit, in bytes")
    func maxBodyBytes() throws {
        #expect(try Configuration.parse([], environment: [:]).maxBodyBytes == 16 << 20)
        #expect(try Configuration.parse(["--max-body-bytes", "65536"], environment: [:]).maxBodyBytes == 65_536)
        #expect(try Configuration.parse(["--max-body-bytes=1073741824"], environment: [:]).maxBodyBytes == 1 << 30)
        for wrong in ["1023", "1073741825", "16MiB", "-1", ""] {
            #expect(throws: (any Error).self) {
                try Configuration.parse(["--max-body-bytes", wrong], environment: [:])
            }
        }
    }

    @Test("at most 100,000 favorites by default; --max-favorites sets another maximum")
    func maxFavorites() throws {
        #expect(try Configuration.parse([], environment: [:]).maxFavorites == 100_000)
        #expect(try Configuration.parse(["--max-favorites", "250"], environment: [:]).maxFavorites == 250)
        #expect(throws: (any Error).self) { try Configuration.parse(["--max-favorites=0"], environment: [:]) }
    }

    @Test("Bright Sky's and the FOSS Public Alert Server's base URLs: flags, else the environment, else the defaults")
    func aggregatorSources() throws {
        let defaults = try Configuration.parse([], environment: [:])
        #expect(defaults.brightSkyBaseURL == "https://api.brightsky.dev")
        #expect(defaults.fpasBaseURL == "https://alerts.kde.org")
        let environment = ["BRIGHTSKY_BASE_URL": "http://bs.env", "FPAS_BASE_URL": "http://fpas.env/"]
        let fromEnvironment = try Configuration.parse([], environment: environment)
        #expect(fromEnvironment.makeOfficialSources().brightSky.baseURL == "http://bs.env")
        #expect(fromEnvironment.makeOfficialSources().fpas.baseURL == "http://fpas.env", "a trailing slash dropped")
        let flags = try Configuration.parse(
            ["--brightsky-base-url", "http://bs.flag", "--fpas-base-url=http://fpas.flag"], environment: environment)
        #expect(flags.brightSkyBaseURL == "http://bs.flag")
        #expect(flags.fpasBaseURL == "http://fpas.flag")
        #expect(throws: ConfigurationError.self) { try Configuration.parse(["--fpas-base-url"], environment: [:]) }
        #expect(throws: ConfigurationError.self) {
            try Configuration.parse(["--brightsky-base-url", "not a url"], environment: [:])
        }
        let settings = UpstreamSettings(flags)
        #expect(settings.baseURLs["brightSky"] == "http://bs.flag")
        #expect(settings.baseURLs["fpas"] == "http://fpas.flag")
        #expect(flags.heldOptions["--brightsky-base-url"] == "http://bs.flag", "the daemon holds them")
        #expect(
            fromEnvironment.differences(fromDaemon: flags.heldOptions).contains {
                $0.hasPrefix("--fpas-base-url (daemon: http://fpas.flag, here: http://fpas.env")
            }, "a client whose aggregator differs from the daemon's is told")
    }

    @Test("the official sources: base URLs and the NWS contact from flags, else the environment, else the defaults")
    func officialSources() throws {
        let defaults = try Configuration.parse([], environment: [:])
        #expect(defaults.nwsBaseURL == "https://api.weather.gov")
        #expect(defaults.meteoAlarmBaseURL == "https://feeds.meteoalarm.org")
        #expect(defaults.openMeteoAirQualityBaseURL == "https://air-quality-api.open-meteo.com")
        #expect(defaults.contact == nil)
        #expect(defaults.warningsInterval == .seconds(600))
        #expect(defaults.summaryCheckInterval == .seconds(60))
        #expect(
            try Configuration.parse(["--summary-check-interval", "0"], environment: [:]).summaryCheckInterval == nil)
        #expect(
            try Configuration.parse(["--summary-check-interval", "300"], environment: [:]).summaryCheckInterval
                == .seconds(300))
        let environment = [
            "NWS_BASE_URL": "http://nws.env", "NWS_CONTACT": "env@example.com", "METEOALARM_BASE_URL": "http://ma.env",
            "OPEN_METEO_AIR_QUALITY_BASE_URL": "http://aq.env",
        ]
        let fromEnvironment = try Configuration.parse([], environment: environment)
        #expect(fromEnvironment.nwsBaseURL == "http://nws.env")
        #expect(fromEnvironment.contact == "env@example.com")
        #expect(fromEnvironment.meteoAlarmBaseURL == "http://ma.env")
        #expect(fromEnvironment.openMeteoAirQualityBaseURL == "http://aq.env")
        let flags = try Configuration.parse(
            [
                "--nws-base-url", "http://nws.flag", "--nws-contact=ops@example.org", "--meteoalarm-base-url",
                "http://ma.flag", "--open-meteo-air-quality-base-url=http://aq.flag", "--warnings-interval", "0",
            ], environment: environment)
        #expect(flags.nwsBaseURL == "http://nws.flag")
        #expect(flags.contact == "ops@example.org")
        #expect(flags.meteoAlarmBaseURL == "http://ma.flag")
        #expect(flags.openMeteoAirQualityBaseURL == "http://aq.flag")
        #expect(flags.warningsInterval == nil)
        #expect(flags.makeOfficialSources().nws.userAgent == "weatherd/\(Engine.version) (ops@example.org)")
        #expect(flags.makeOfficialSources().airQuality.name == "open-meteo")
        let owm = try Configuration.parse([], environment: ["OWM_API_KEY": "k"])
        #expect(owm.makeOfficialSources().airQuality.name == "openweathermap")
        #expect(throws: (any Error).self) { try Configuration.parse(["--nws-base-url", "ftp://x"], environment: [:]) }
    }

    @Test("the data dir falls back from WEATHERD_DATA_DIR to XDG_DATA_HOME to ~/.local/share")
    func dataDirectory() {
        #expect(Configuration.defaultDataDirectory(["WEATHERD_DATA_DIR": "/a", "XDG_DATA_HOME": "/b"]) == "/a")
        #expect(Configuration.defaultDataDirectory(["XDG_DATA_HOME": "/b", "HOME": "/h"]) == "/b/weatherd")
        #expect(Configuration.defaultDataDirectory(["HOME": "/h"]) == "/h/.local/share/weatherd")
    }

    @Test(
        "a wrong flag names itself",
        arguments: [
            (["--fsync", "sometimes"], "--fsync"), (["--max-line-bytes", "ten"], "--max-line-bytes"),
            (["--data-dir"], "--data-dir"), (["--colour"], "--colour"), (["--log-level", "loud"], "--log-level"),
            (["--snapshot-every", "-1"], "--snapshot-every"), (["--snapshot-every", "often"], "--snapshot-every"),
        ])
    func errors(arguments: [String], flag: String) {
        do {
            _ = try Configuration.parse(arguments, environment: [:])
            Issue.record("accepted \(arguments)")
        } catch {
            #expect(error.description.contains(flag))
        }
    }
}
