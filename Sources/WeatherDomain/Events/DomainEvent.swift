/// Every event weatherd writes, as a value with its type and schema version.
///
/// The log stores `type`, `v` and `data`; `EventCatalog` turns them back into a `DomainEvent`,
/// upcasting older versions first. Adding a case never changes the meaning of an existing one.
package enum DomainEvent: Sendable, Equatable {
    case serviceStarted(ServiceStarted)
    case serviceStopped(ServiceStopped)
    case logRecovered(LogRecovered)
    case logTruncated(LogTruncated)
    case favoriteAdded(Favorite)
    case favoriteRemoved(Favorite)
    case favoriteUpdated(FavoriteUpdate)
    case historyRecorded(HistoryEntry)
    case historyCleared(count: Int64)
    case settingsChanged(SettingsChange)
    case locationChanged(Location)
    /// The current location was cleared (`location/clear`); the payload is the location that was cleared.
    case locationCleared(Location)
    case weatherFetched(WeatherFetched)
    case weatherFetchFailed(FetchFailed)
    case geocodeFetched(GeocodeFetched)
    case geocodeFailed(FetchFailed)
    case alertRaised(RaisedAlert)
    case alertsConfigured(AlertSettings)
    case warningsFetched(WarningsFetched)
    case warningsListed(WarningsListed)
    case airQualityFetched(AirQualityFetched)
    case pointFetched(PointFetched)
    case nowcastFetched(NowcastFetched)
    case pastFetched(PastFetched)
    case notModified(NotModified)
    case nowcastChanged(NowcastChanged)
    case ensembleFetched(EnsembleFetched)
    case modelsFetched(ModelsFetched)

    /// The event's type name as written in the log.
    package var type: String { kind.type }

    /// The kind: type and version.
    package var kind: EventKind {
        switch self {
        case .serviceStarted: EventKind("service.started", 1)
        case .serviceStopped: EventKind("service.stopped", 1)
        case .logRecovered: EventKind("log.recovered", 1)
        case .logTruncated: EventKind("log.truncated", 1)
        case .favoriteAdded: EventKind("favorite.added", 1)
        case .favoriteRemoved: EventKind("favorite.removed", 1)
        case .favoriteUpdated: EventKind("favorite.updated", 1)
        case .historyRecorded: EventKind("history.recorded", 1)
        case .historyCleared: EventKind("history.cleared", 1)
        case .settingsChanged: EventKind("settings.changed", 1)
        case .locationChanged: EventKind("location.changed", 2)
        case .locationCleared: EventKind("location.cleared", 2)
        case .weatherFetched: EventKind("weather.fetched", 1)
        case .weatherFetchFailed: EventKind("weather.fetch_failed", 1)
        case .geocodeFetched: EventKind("geocode.fetched", 1)
        case .geocodeFailed: EventKind("geocode.failed", 1)
        case .alertRaised: EventKind("alert.raised", 3)
        case .alertsConfigured: EventKind("alerts.configured", 2)
        case .warningsFetched: EventKind("warnings.fetched", 2)
        case .warningsListed: EventKind("warnings.listed", 1)
        case .airQualityFetched: EventKind("air_quality.fetched", 1)
        case .pointFetched: EventKind("point.fetched", 1)
        case .nowcastFetched: EventKind("nowcast.fetched", 1)
        case .pastFetched: EventKind("past.fetched", 1)
        case .notModified: EventKind("upstream.not_modified", 1)
        case .nowcastChanged: EventKind("nowcast.changed", 1)
        case .ensembleFetched: EventKind("ensemble.fetched", 1)
        case .modelsFetched: EventKind("models.fetched", 1)
        }
    }

    /// The payload as written in the log's `data`.
    package var data: JSONValue {
        switch self {
        case .serviceStarted(let payload): payload.json
        case .serviceStopped(let payload): payload.json
        case .logRecovered(let payload): payload.json
        case .logTruncated(let payload): payload.json
        case .favoriteAdded(let favorite), .favoriteRemoved(let favorite): favorite.json
        case .favoriteUpdated(let update): update.json
        case .historyRecorded(let entry): entry.json
        case .historyCleared(let count): .object(["count": .int(count)])
        case .settingsChanged(let change): change.json
        case .locationChanged(let location), .locationCleared(let location): location.json
        case .weatherFetched(let fetched): fetched.json
        case .weatherFetchFailed(let failed), .geocodeFailed(let failed): failed.json
        case .geocodeFetched(let fetched): fetched.json
        case .alertRaised(let alert): alert.json
        case .alertsConfigured(let settings): settings.json
        case .warningsFetched(let fetched): fetched.json
        case .warningsListed(let listed): listed.json
        case .airQualityFetched(let fetched): fetched.json
        case .pointFetched(let fetched): fetched.json
        case .nowcastFetched(let fetched): fetched.json
        case .pastFetched(let fetched): fetched.json
        case .notModified(let confirmed): confirmed.json
        case .nowcastChanged(let changed): changed.json
        case .ensembleFetched(let fetched): fetched.json
        case .modelsFetched(let fetched): fetched.json
        }
    }

    /// Decodes a current-version payload; nil for a type or version this build does not know.
    static func decodeCurrent(_ kind: EventKind, data: JSONValue) throws(FieldError) -> DomainEvent? {
        switch (kind.type, kind.version) {
        case ("service.started", 1): return .serviceStarted(try ServiceStarted(json: data))
        case ("service.stopped", 1): return .serviceStopped(try ServiceStopped(json: data))
        case ("log.recovered", 1): return .logRecovered(try LogRecovered(json: data))
        case ("log.truncated", 1): return .logTruncated(try LogTruncated(json: data))
        case ("favorite.added", 1): return .favoriteAdded(try Favorite(json: data))
        case ("favorite.removed", 1): return .favoriteRemoved(try Favorite(json: data))
        case ("favorite.updated", 1): return .favoriteUpdated(try FavoriteUpdate(json: data))
        case ("history.recorded", 1): return .historyRecorded(try HistoryEntry(json: data))
        case ("history.cleared", 1): return .historyCleared(count: try FieldReader(data, path: "data").int("count"))
        case ("settings.changed", 1): return .settingsChanged(try SettingsChange(json: data))
        case ("location.changed", 2): return .locationChanged(try Location(json: data))
        case ("location.cleared", 2): return .locationCleared(try Location(json: data))
        case ("weather.fetched", 1):
            // A fetch whose report compaction stripped (a later fetch of its entry replaced it) keeps its audit facts.
            if case .object(let members) = data, members["compacted"] != nil {
                return .weatherFetched(try WeatherFetched(auditOf: members))
            }
            return .weatherFetched(try WeatherFetched(json: data))
        case ("weather.fetch_failed", 1): return .weatherFetchFailed(try FetchFailed(json: data))
        case ("geocode.fetched", 1): return .geocodeFetched(try GeocodeFetched(json: data))
        case ("geocode.failed", 1): return .geocodeFailed(try FetchFailed(json: data))
        case ("alert.raised", 3): return .alertRaised(try RaisedAlert(json: data))
        case ("alerts.configured", 2): return .alertsConfigured(try AlertSettings(json: data))
        case ("warnings.fetched", 2): return .warningsFetched(try WarningsFetched(json: data))
        case ("warnings.listed", 1): return .warningsListed(try WarningsListed(json: data))
        case ("air_quality.fetched", 1): return .airQualityFetched(try AirQualityFetched(json: data))
        case ("point.fetched", 1): return .pointFetched(try PointFetched(json: data))
        case ("nowcast.fetched", 1): return .nowcastFetched(try NowcastFetched(json: data))
        case ("past.fetched", 1): return .pastFetched(try PastFetched(json: data))
        case ("upstream.not_modified", 1): return .notModified(try NotModified(json: data))
        case ("nowcast.changed", 1): return .nowcastChanged(try NowcastChanged(json: data))
        case ("ensemble.fetched", 1): return .ensembleFetched(try EnsembleFetched(json: data))
        case ("models.fetched", 1): return .modelsFetched(try ModelsFetched(json: data))
        default: return nil
        }
    }
}

/// An event type and schema version, e.g. `favorite.added` v1.
package struct EventKind: Sendable, Hashable, CustomStringConvertible {
    package var type: String
    package var version: Int

    package init(_ type: String, _ version: Int) {
        self.type = type
        self.version = version
    }

    package var description: String { "\(type).v\(version)" }
}
