import Providers
import Testing
import WeatherEngine

@Suite("Configuration: which OpenWeatherMap weather API")
struct OWMAPIConfigurationTests {
    @Test("2.5 by default; OWM_API=onecall3 chooses One Call 3.0, and --owm-api wins over the environment")
    func choice() throws {
        let defaults = try Configuration.parse([], environment: ["OWM_API_KEY": "k"])
        #expect(defaults.owmAPI == "2.5")
        #expect(defaults.makeProvider() is OpenWeatherMapProvider)
        #expect(!defaults.makeProvider().hasHourlyForecast)

        let environment = ["OWM_API_KEY": "k", "OWM_API": "onecall3"]
        let oneCall = try Configuration.parse([], environment: environment)
        #expect(oneCall.owmAPI == "onecall3")
        let provider = oneCall.makeProvider()
        #expect(provider is OpenWeatherMapOneCallProvider)
        #expect(provider.name == "openweathermap")
        #expect(provider.hasHourlyForecast)
        #expect(provider.forecastRequest(lat: 1, lon: 2).auditURL.contains("/data/3.0/onecall?"))
        #expect(provider.geocodeRequest(query: "Oslo", limit: 1).auditURL.contains("/geo/1.0/direct?"))
        #expect(oneCall.makeOfficialSources().airQuality.name == "openweathermap", "air pollution stays on 2.5")

        let flag = try Configuration.parse(["--owm-api=2.5"], environment: environment)
        #expect(flag.owmAPI == "2.5")
        #expect(flag.makeProvider() is OpenWeatherMapProvider)
        let both = try Configuration.parse(
            ["--owm-api", "onecall3", "--owm-base-url", "http://127.0.0.1:9/x/"], environment: ["OWM_API_KEY": "k"])
        #expect(both.makeProvider().currentRequest(lat: 0, lon: 0).auditURL.hasPrefix("http://127.0.0.1:9/x/data/3.0/"))
    }

    @Test("One Call without OpenWeatherMap changes nothing: Open-Meteo stays the provider")
    func withoutKey() throws {
        let config = try Configuration.parse(["--owm-api", "onecall3"], environment: [:])
        #expect(config.provider == "open-meteo")
        #expect(config.makeProvider() is OpenMeteoProvider)
    }

    @Test(
        "an unknown API is refused, naming the flag or the variable",
        arguments: [
            (["--owm-api", "3.0"], [:], "--owm-api must be 2.5 or onecall3"),
            (["--owm-api"], [:], "--owm-api needs a value"),
            ([], ["OWM_API": "onecall"], "OWM_API must be 2.5 or onecall3"),
        ] as [([String], [String: String], String)])
    func refused(arguments: [String], environment: [String: String], message: String) {
        do {
            _ = try Configuration.parse(arguments, environment: environment)
            Issue.record("accepted \(arguments) \(environment)")
        } catch {
            #expect(error.description == message)
        }
    }
}
