import Providers

extension Configuration {
    /// The provider these settings choose; with OpenWeatherMap, its 2.5 APIs or One Call 3.0 (`owmAPI`).
    package func makeProvider() -> any WeatherProvider {
        if provider == "openweathermap", let owmAPIKey {
            if owmAPI == "onecall3" { return OpenWeatherMapOneCallProvider(apiKey: owmAPIKey, baseURL: owmBaseURL) }
            return OpenWeatherMapProvider(apiKey: owmAPIKey, baseURL: owmBaseURL)
        }
        return OpenMeteoProvider(baseURL: openMeteoBaseURL, geocodingBaseURL: openMeteoGeocodingBaseURL)
    }
}

extension Configuration {
    /// Reads the official sources' environment variables: `NWS_BASE_URL`, `NWS_CONTACT`,
    /// `METEOALARM_BASE_URL`, `OPEN_METEO_AIR_QUALITY_BASE_URL` (flags given later win).
    mutating func readOfficialSources(_ environment: [String: String]) {
        if let url = environment["NWS_BASE_URL"], !url.isEmpty { nwsBaseURL = url }
        if let contact = environment["NWS_CONTACT"], !contact.isEmpty { nwsContact = contact }
        if let url = environment["METEOALARM_BASE_URL"], !url.isEmpty { meteoAlarmBaseURL = url }
        if let url = environment["OPEN_METEO_AIR_QUALITY_BASE_URL"], !url.isEmpty { openMeteoAirQualityBaseURL = url }
    }

    /// The warning and air-quality sources these settings choose: NWS with a `User-Agent` naming weatherd and
    /// `nwsContact`, MeteoAlarm, and the air quality of the weather provider's family (OpenWeatherMap's air
    /// pollution API with the OpenWeatherMap provider, else Open-Meteo's keyless air-quality API).
    package func makeOfficialSources() -> OfficialSources {
        let airQuality: any AirQualityProvider =
            if provider == "openweathermap", let owmAPIKey {
                OpenWeatherMapAirQualityProvider(apiKey: owmAPIKey, baseURL: owmBaseURL)
            } else {
                OpenMeteoAirQualityProvider(baseURL: openMeteoAirQualityBaseURL)
            }
        return OfficialSources(
            nws: NWSWarningProvider(
                userAgent: NWSWarningProvider.userAgent(contact: nwsContact ?? "", version: Engine.version),
                baseURL: nwsBaseURL),
            meteoAlarm: MeteoAlarmWarningProvider(baseURL: meteoAlarmBaseURL), airQuality: airQuality,
            language: warningsLanguage)
    }
}
