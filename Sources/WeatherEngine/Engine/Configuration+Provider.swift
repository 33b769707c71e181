import Providers

extension Configuration {
    /// The provider these settings choose.
    public func makeProvider() -> any WeatherProvider {
        if provider == "openweathermap", let owmAPIKey {
            return OpenWeatherMapProvider(apiKey: owmAPIKey, baseURL: owmBaseURL)
        }
        return OpenMeteoProvider(baseURL: openMeteoBaseURL, geocodingBaseURL: openMeteoGeocodingBaseURL)
    }
}
