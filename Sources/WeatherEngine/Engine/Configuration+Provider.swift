import Providers

extension Configuration {
    /// The provider these settings choose; with OpenWeatherMap, its 2.5 APIs or One Call 3.0 (`owmAPI`); MET
    /// Norway with the `User-Agent` naming `contact` (which `parse` requires for it), Open-Meteo's geocoding and
    /// the system's time zone table (`zones`, read here when not given).
    package func makeProvider(zones: ZoneTable? = nil) -> any WeatherProvider {
        if provider == "openweathermap", let owmAPIKey {
            if owmAPI == "onecall3" { return OpenWeatherMapOneCallProvider(apiKey: owmAPIKey, baseURL: owmBaseURL) }
            return OpenWeatherMapProvider(apiKey: owmAPIKey, baseURL: owmBaseURL)
        }
        if provider == "met-norway" {
            return MetNorwayProvider(
                userAgent: UserAgent.weatherd(contact: contact ?? "", version: Engine.version),
                baseURL: metNorwayBaseURL, geocodingBaseURL: openMeteoGeocodingBaseURL, zones: zones ?? .system())
        }
        return OpenMeteoProvider(baseURL: openMeteoBaseURL, geocodingBaseURL: openMeteoGeocodingBaseURL)
    }
}

extension Configuration {
    /// The warning and air-quality sources these settings choose: NWS with a `User-Agent` naming weatherd and
    /// `contact`, MeteoAlarm, Bright Sky, the FOSS Public Alert Server, and the air quality of the weather
    /// provider's family (OpenWeatherMap's air pollution API with the OpenWeatherMap provider, else Open-Meteo's
    /// keyless air-quality API); the system's time zone table (`zones`, read here when not given) names the
    /// countries a point without one is likely in.
    package func makeOfficialSources(zones: ZoneTable? = nil) -> OfficialSources {
        let airQuality: any AirQualityProvider =
            if provider == "openweathermap", let owmAPIKey {
                OpenWeatherMapAirQualityProvider(apiKey: owmAPIKey, baseURL: owmBaseURL)
            } else {
                OpenMeteoAirQualityProvider(baseURL: openMeteoAirQualityBaseURL)
            }
        return OfficialSources(
            nws: NWSWarningProvider(
                userAgent: NWSWarningProvider.userAgent(contact: contact ?? "", version: Engine.version),
                baseURL: nwsBaseURL),
            meteoAlarm: MeteoAlarmWarningProvider(baseURL: meteoAlarmBaseURL), airQuality: airQuality,
            nowcast: makeNowcastSources(), archive: OpenMeteoArchive(baseURL: openMeteoArchiveBaseURL),
            historicalForecast: .historicalForecast(baseURL: openMeteoHistoricalForecastBaseURL),
            language: warningsLanguage, brightSky: BrightSkyWarningProvider(baseURL: brightSkyBaseURL),
            fpas: FPASWarningProvider(baseURL: fpasBaseURL), zones: zones ?? .system())
    }

    /// The nowcast sources these settings allow: MET Norway only with a contact, One Call's `minutely` only with
    /// `--owm-api onecall3` and a key, Open-Meteo always (unless `--nowcast-sources` leaves one out).
    package func makeNowcastSources() -> NowcastSources {
        let userAgent = contact.map { UserAgent.weatherd(contact: $0, version: Engine.version) }
        let oneCall =
            provider == "openweathermap" && owmAPI == "onecall3"
            ? owmAPIKey.map { OpenWeatherMapOneCallProvider(apiKey: $0, baseURL: owmBaseURL) } : nil
        return NowcastSources(
            metNorway: userAgent.map { (metNorwayBaseURL, $0) }, oneCall: oneCall,
            openMeteoBaseURL: openMeteoBaseURL, enabled: nowcastSources)
    }
}
