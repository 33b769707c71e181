import Providers

/// The keyless sources beside the weather provider, which the `FetchActor` calls as it calls the provider:
/// official warnings (NWS for the US, MeteoAlarm for Europe) and air quality.
public struct OfficialSources: Sendable {
    public var nws: NWSWarningProvider
    public var meteoAlarm: MeteoAlarmWarningProvider
    public var airQuality: any AirQualityProvider
    /// The language a warning given in several is kept in (nil: English where given, else the first).
    public var language: String?

    public init(
        nws: NWSWarningProvider, meteoAlarm: MeteoAlarmWarningProvider, airQuality: any AirQualityProvider,
        language: String? = nil
    ) {
        self.nws = nws
        self.meteoAlarm = meteoAlarm
        self.airQuality = airQuality
        self.language = language
    }
}
