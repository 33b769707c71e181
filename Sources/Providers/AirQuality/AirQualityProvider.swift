import WeatherDomain

/// An air-quality provider: how to ask it, and how to read its answers into canonical units.
///
/// Two implementations: `OpenMeteoAirQualityProvider` (one request gives the values now and the
/// hours) and `OpenWeatherMapAirQualityProvider` (one request for now, one for the hours). Neither
/// performs I/O.
package protocol AirQualityProvider: Sendable {
    /// `open-meteo` or `openweathermap`, as recorded in events.
    var name: String { get }

    /// The request for the values now (and, for Open-Meteo, the hours too).
    func airQualityRequest(lat: Double, lon: Double) -> ProviderRequest
    /// The request for the hourly values, when they need one of their own; nil for Open-Meteo.
    func airQualityForecastRequest(lat: Double, lon: Double) -> ProviderRequest?

    /// Reads the 2xx bodies of the two requests (`forecast` nil when there is no such request)
    /// into the values now and the next 24 hours from the hour holding `now`.
    func decodeAirQuality(_ body: [UInt8], forecast: [UInt8]?, place: Place, now: Timestamp) throws(ProviderError)
        -> AirQualityReport
}

extension AirQualityReport {
    /// The hourly entries from the hour holding `now` on, at most `maxHours` of them.
    static func nextHours(_ entries: [AirQualityEntry], now: Timestamp) -> [AirQualityEntry] {
        let hour: Int64 = 3_600_000
        return Array(entries.drop { $0.time.milliseconds + hour <= now.milliseconds }.prefix(maxHours))
    }
}
