import WeatherDomain

/// What an API call returns at once: the rest of its work, run concurrently with other calls.
///
/// A call's own `async` part runs in its connection's dispatch loop, one request at a time in arrival
/// order: it checks arguments and, for a change, decides and queues the events. The `Completion` it
/// returns (waiting for durability, fetching, formatting) runs concurrently with other requests.
public typealias Completion = @Sendable () async throws -> JSONValue

/// Who asked: the `cause` recorded on the events a call writes (`<connection>/rpc:<id>`) and the
/// client's `commandId`, recorded as `corr`.
public struct Origin: Sendable, Equatable {
    public var cause: String
    public var corr: String?

    public init(cause: String, corr: String? = nil) {
        self.cause = cause
        self.corr = corr
    }
}

/// The place a weather call is for, as both faces take it.
public enum PlaceQuery: Sendable, Equatable {
    /// A city name, geocoded (and recorded in the search history).
    case city(String)
    /// The client's coordinates (rounded before anything records them).
    case coordinates(lat: Double, lon: Double)
    /// A favorite by its id or, failing that, its name (case-insensitive).
    case favorite(String)
    /// The current location (`location/set`).
    case currentLocation
}

/// How much of a forecast to return: `summary` is the daily lows and highs, `full` adds the 3-hourly
/// entries of those days.
public enum ForecastDetail: String, CaseIterable, Sendable {
    case summary, full
}

/// A page of a list: at most `limit` items from `offset` (the cursor `o<offset>`).
public struct PageRequest: Sendable, Equatable {
    public var limit: Int
    public var offset: Int

    public init(limit: Int, offset: Int = 0) {
        self.limit = limit
        self.offset = offset
    }
}

/// A favorite to add: a city to geocode, or a name at coordinates.
public enum NewFavorite: Sendable, Equatable {
    case city(String)
    case place(name: String, lat: Double, lon: Double, country: String?)
}

/// Where `location/set` moves to: coordinates, or an address to geocode.
public enum NewLocation: Sendable, Equatable {
    case coordinates(lat: Double, lon: Double)
    case address(String)
}

/// Which places a refresh covers.
public enum RefreshScope: String, CaseIterable, Sendable {
    case all, favorites, current
}

/// The changes of `alerts/configure`; nil leaves a setting as it is.
public struct AlertConfiguration: Sendable, Equatable {
    public var dailySummaryEnabled: Bool?
    /// Minutes after local midnight.
    public var dailySummaryMinutes: Int64?
    public var tempDropC: Double?
    public var severe: Bool?

    public init(
        dailySummaryEnabled: Bool? = nil, dailySummaryMinutes: Int64? = nil, tempDropC: Double? = nil,
        severe: Bool? = nil
    ) {
        self.dailySummaryEnabled = dailySummaryEnabled
        self.dailySummaryMinutes = dailySummaryMinutes
        self.tempDropC = tempDropC
        self.severe = severe
    }
}

/// The filters and page of an events query.
public struct EventFilter: Sendable, Equatable {
    public var afterSeq: Int64
    public var types: Set<String>?
    public var since: Timestamp?
    public var until: Timestamp?
    public var limit: Int

    public init(
        afterSeq: Int64 = 0, types: Set<String>? = nil, since: Timestamp? = nil, until: Timestamp? = nil,
        limit: Int = 100
    ) {
        self.afterSeq = afterSeq
        self.types = types
        self.since = since
        self.until = until
        self.limit = limit
    }
}
