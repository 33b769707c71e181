import EventLog
import WeatherDomain
import WeatherRuntime

// The engine's API in facets: a face's handler holds the facet it uses, not the engine. `Engine` is each
// of them; its methods take and return Swift values and throw `EngineFailure`s (or the domain's and the
// providers' errors). JSON, JSON-RPC codes and MCP wording are the faces'.

/// Weather at places: current, forecast, air quality and official warnings, and finding places.
package protocol WeatherFacet: Sendable {
    /// See `Engine.current(_:units:maxAgeMs:origin:)`.
    func current(_ place: PlaceQuery, units: Units?, maxAgeMs: Int64?, origin: Origin) -> Completion<CurrentWeather>
    /// See `Engine.forecast(_:units:maxAgeMs:days:detail:type:origin:)`.
    func forecast(
        _ place: PlaceQuery, units: Units?, maxAgeMs: Int64?, days: Int?, detail: ForecastDetail, type: ForecastType,
        origin: Origin
    ) throws(EngineError) -> Completion<ForecastWeather>
    /// The forecast types the provider can give.
    var forecastTypes: [ForecastType] { get }
    func searchCities(_ query: String, limit: Int, origin: Origin) throws(FieldError) -> Completion<[Place]>
    func mapFavorites() async -> Completion<FavoritesMap>
    func airQuality(_ place: PlaceQuery, maxAgeMs: Int64?, origin: Origin) -> Completion<AirQualityAnswer>
    /// See `Engine.nowcast(_:units:origin:)`.
    func nowcast(_ place: PlaceQuery, units: Units?, origin: Origin) -> Completion<NowcastAnswer>
    func warnings(_ place: PlaceQuery, origin: Origin) -> Completion<WarningsAnswer>
    /// See `Engine.history(_:from:to:hourly:units:origin:)`.
    func history(_ place: PlaceQuery, from: String, to: String, hourly: Bool, units: Units?, origin: Origin)
        -> Completion<HistoryAnswer>
    /// See `Engine.climate(_:date:units:origin:)`.
    func climate(_ place: PlaceQuery, date: String?, units: Units?, origin: Origin) -> Completion<ClimateAnswer>
    /// See `Engine.forecastChanges(_:date:days:units:origin:)`.
    func forecastChanges(_ place: PlaceQuery, date: String?, days: Int?, units: Units?, origin: Origin)
        -> Completion<ForecastChangesAnswer>
    /// See `Engine.confidence(_:days:units:origin:)`.
    func confidence(_ place: PlaceQuery, days: Int?, units: Units?, origin: Origin) -> Completion<ConfidenceAnswer>
    /// See `Engine.compareModels(_:models:days:units:origin:)`.
    func compareModels(_ place: PlaceQuery, models: [String]?, days: Int?, units: Units?, origin: Origin)
        -> Completion<ModelComparisonAnswer>
    /// See `Engine.accuracy(_:units:origin:)`.
    func accuracy(_ place: PlaceQuery, units: Units?, origin: Origin) -> Completion<AccuracyAnswer>
    func placeKey(of place: PlaceQuery, cause: String) async -> String?
    func completePlace(_ typed: String, cause: String) async throws -> [String]
}

/// The favorites and the search history.
package protocol FavoritesFacet: Sendable {
    func addFavorite(_ favorite: NewFavorite, origin: Origin) async throws -> Completion<Favorite?>
    func removeFavorite(_ idOrName: String, origin: Origin) async throws -> Completion<Favorite?>
    func updateFavorite(_ idOrName: String, name: String?, notify: Bool?, origin: Origin) async throws
        -> Completion<Favorite?>
    func listFavorites() async -> Completion<[Favorite]>
    func allFavorites() async -> [Favorite]
    func favorite(idOrName text: String) async -> Favorite?
    func currentFetchedAt(_ items: [Favorite]) async -> [Timestamp?]
    func listHistory() async -> Completion<[HistoryEntry]>
    func clearHistory(origin: Origin) async throws -> Completion<Int64>
}

/// The reader's units.
package protocol SettingsFacet: Sendable {
    func getSettings() async -> Completion<SettingsChange>
    func changeSettings(_ edit: SettingsEdit, origin: Origin) async throws -> Completion<SettingsChange>
}

/// The current location, and refreshing the places weatherd keeps.
package protocol LocationFacet: Sendable {
    func currentLocation(autoLocation: Bool?, origin: Origin) async -> Completion<Location>
    func setLocation(_ target: NewLocation, origin: Origin) async throws -> Completion<Location>
    func clearLocation(origin: Origin) async throws -> Completion<Location?>
    func refresh(
        _ scope: RefreshScope, only: Set<String>?, cause: String,
        onPlace: (@Sendable (_ result: RefreshOutcome, _ done: Int, _ total: Int) -> Void)?
    ) async throws -> RefreshReport
    /// See `Engine.refresh(_:cause:)`.
    func refresh(_ place: PlaceQuery, cause: String) async throws -> RefreshReport
}

/// The alerts raised, their rules, and the official warnings in force.
package protocol AlertsFacet: Sendable {
    func listAlerts() async -> Completion<RaisedAlerts>
    func allAlerts() async -> RaisedAlerts
    func configureAlerts(_ change: AlertConfiguration, origin: Origin) async throws -> Completion<AlertSettings>
    func warningsInForce() async -> WarningsInForce
    func followAlerts(_ raised: @Sendable (RaisedAlert, UnitChoice) -> Void) async
    /// See `Engine.watchNowcast(_:by:cause:)`.
    func watchNowcast(_ place: PlaceQuery, by watches: NowcastWatches, cause: String) async
    /// See `Engine.followingAlerts(by:_:)`.
    func followingAlerts<T: Sendable>(by watches: NowcastWatches, _ body: () async throws -> T) async rethrows -> T
}

/// The log: its events, following it, verifying the state it rebuilds, and the service's facts.
package protocol LogFacet: Sendable {
    func queryEvents(_ filter: EventFilter) -> Completion<EventPage>
    func feedEvents(
        afterSeq: Int64, types: Set<String>?, room: @Sendable () async -> Void,
        caughtUp: @Sendable (_ lastSeq: Int64) -> Void, send: @escaping @Sendable ([String: JSONValue]) -> Void
    ) async -> EventFeedEnd
    /// Every committed event, each once and in order, for whatever follows the log.
    var follower: LogFollower { get }
    /// The seq of the last committed event.
    var lastSeq: Int64 { get }
    func verify() async throws -> StateVerification
    func status() async -> ServiceStatus
    /// See `Engine.metrics()`.
    func metrics() async -> MetricsReading
    /// See `Engine.browserLink()`.
    func browserLink() throws(EngineError) -> BrowserLink
}

extension Engine: WeatherFacet, FavoritesFacet, SettingsFacet, LocationFacet, AlertsFacet, LogFacet {}
