import Providers

/// The keyless sources beside the weather provider, which the `FetchActor` calls as it calls the provider:
/// official warnings (NWS for the US, Bright Sky for Germany, MeteoAlarm for Europe, the FOSS Public Alert
/// Server for the rest) and air quality.
package struct OfficialSources: Sendable {
    package var nws: NWSWarningProvider
    package var meteoAlarm: MeteoAlarmWarningProvider
    /// The DWD's warnings by municipality, through Bright Sky.
    package var brightSky: BrightSkyWarningProvider
    /// KDE's FOSS Public Alert Server: CAP feeds worldwide.
    package var fpas: FPASWarningProvider
    /// The time zone table, whose country codes name the countries a point without one is likely in.
    package var zones: ZoneTable
    package var airQuality: any AirQualityProvider
    /// The nowcast sources, best first.
    package var nowcast: NowcastSources
    /// Open-Meteo's Historical Weather API: the past and the climate.
    package var archive: OpenMeteoArchive
    /// Open-Meteo's Historical Forecast API: the recent days the archive does not reach yet.
    package var historicalForecast: OpenMeteoArchive
    /// The language a warning given in several is kept in (nil: English where given, else the first).
    package var language: String?

    package init(
        nws: NWSWarningProvider, meteoAlarm: MeteoAlarmWarningProvider, airQuality: any AirQualityProvider,
        nowcast: NowcastSources, archive: OpenMeteoArchive = OpenMeteoArchive(),
        historicalForecast: OpenMeteoArchive = .historicalForecast(), language: String? = nil,
        brightSky: BrightSkyWarningProvider = BrightSkyWarningProvider(),
        fpas: FPASWarningProvider = FPASWarningProvider(),
        zones: ZoneTable = ZoneTable(entries: [])
    ) {
        self.brightSky = brightSky
        self.fpas = fpas
        self.zones = zones
        self.archive = archive
        self.historicalForecast = historicalForecast
        self.nowcast = nowcast
        self.nws = nws
        self.meteoAlarm = meteoAlarm
        self.airQuality = airQuality
        self.language = language
    }
}
