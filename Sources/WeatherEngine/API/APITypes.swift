import EventLog
import WeatherDomain

/// What an API call returns at once: the rest of its work, run concurrently with other calls.
///
/// A call's own `async` part runs in its connection's dispatch loop, one request at a time in arrival
/// order: it checks arguments and, for a change, decides and queues the events. The `Completion` it
/// returns (waiting for durability, fetching) runs concurrently with other requests: call it
/// (`try await completion()`) for the answer, a Swift value that each face puts in its own form (`map`).
///
/// A change whose answer is known once it is decided also carries it as `durable`, so a face can answer
/// from where the log's sync completes instead of waiting for a task to be scheduled.
package struct Completion<Value: Sendable>: Sendable {
    private let body: @Sendable () async throws -> Value
    /// The answer of a change that waits only for its events to be durable; nil for every other call.
    package let durable: DurableAnswer<Value>?

    /// A completion that computes its answer in `body`.
    package init(_ body: @escaping @Sendable () async throws -> Value) {
        self.body = body
        durable = nil
    }

    /// A completion whose answer is `durable`'s once its events are durable.
    package init(_ durable: DurableAnswer<Value>) {
        body = { try await durable.value() }
        self.durable = durable
    }

    /// The answer, or the call's error.
    package func callAsFunction() async throws -> Value { try await body() }

    /// The same call with its answer put in another form, e.g. a face's wire; a durable answer stays one.
    package func map<Other: Sendable>(_ transform: @escaping @Sendable (Value) -> Other) -> Completion<Other> {
        if let durable { return Completion<Other>(durable.map(transform)) }
        return Completion<Other> { transform(try await self()) }
    }
}

/// The answer of a change that waits only for its events to be durable: `result` once they are, or the
/// storage failure that kept them out of the log. Hooks added with `before` run first, once, on whichever
/// path delivers the outcome.
package struct DurableAnswer<Value: Sendable>: Sendable {
    /// The outcome a hook or a delivery gets.
    package typealias Outcome = Result<Value, any Error>

    private let ticket: AppendTicket
    /// The answer once the events are durable.
    package let result: Value
    private let hooks: [@Sendable (Outcome) -> Void]

    init(ticket: AppendTicket, result: Value) {
        self.init(ticket: ticket, result: result, hooks: [])
    }

    private init(ticket: AppendTicket, result: Value, hooks: [@Sendable (Outcome) -> Void]) {
        self.ticket = ticket
        self.result = result
        self.hooks = hooks
    }

    /// The same answer with `hook` run on its outcome before it is delivered (short work, blocking nothing).
    package func before(_ hook: @escaping @Sendable (Outcome) -> Void) -> DurableAnswer {
        DurableAnswer(ticket: ticket, result: result, hooks: hooks + [hook])
    }

    /// The answer in another form, transformed now (it is known once decided); hooks added before still run.
    func map<Other: Sendable>(_ transform: (Value) -> Other) -> DurableAnswer<Other> {
        let original = result
        let carried = hooks.map { hook in
            { @Sendable (outcome: DurableAnswer<Other>.Outcome) in hook(outcome.map { _ in original }) }
        }
        return DurableAnswer<Other>(ticket: ticket, result: transform(result), hooks: carried)
    }

    /// Calls `deliver` once with the outcome: on the log writer's thread right after the sync (so it must be
    /// short and block on nothing), or, when the events are already durable, on this thread before returning.
    ///
    /// - Returns: true when `deliver` has already run.
    @discardableResult
    package func onDurable(_ deliver: @escaping @Sendable (Outcome) -> Void) -> Bool {
        ticket.onCommitted { [result, hooks] committed in
            let outcome: Outcome = committed.map { _ in result }.mapError { $0 }
            for hook in hooks { hook(outcome) }
            deliver(outcome)
        }
    }

    /// Waits in a task for the outcome.
    func value() async throws -> Value {
        let outcome: Outcome
        do {
            _ = try await ticket.committed()
            outcome = .success(result)
        } catch {
            outcome = .failure(error)
        }
        for hook in hooks { hook(outcome) }
        return try outcome.get()
    }
}

/// Who asked: the `cause` recorded on the events a call writes (`<connection>/rpc:<id>`) and the
/// client's `commandId`, recorded as `corr`.
package struct Origin: Sendable, Equatable {
    package var cause: String
    package var corr: String?

    package init(cause: String, corr: String? = nil) {
        self.cause = cause
        self.corr = corr
    }
}

/// The place a weather call is for, as both faces take it.
package enum PlaceQuery: Sendable, Equatable {
    /// A city name, geocoded (and recorded in the search history).
    case city(String)
    /// The client's coordinates, checked on the way in (rounded before anything records them).
    case coordinates(Coordinates)
    /// A favorite by its id or, failing that, its name (case-insensitive).
    case favorite(String)
    /// The current location (`location/set`); with `autoLocation` (nil: the daemon's `--auto-location`), one
    /// weatherd finds when none is set (`Engine.currentLocation(auto:cause:)`).
    case currentLocation(autoLocation: Bool?)
}

/// How much of a forecast to return: `summary` is the days alone, `full` adds the steps (`entries`) of
/// those days at the forecast type's resolution.
package enum ForecastDetail: String, CaseIterable, Sendable {
    case summary, full

    /// How many days a forecast request may ask for (`days`): the most a provider gives (Open-Meteo's 16).
    package static let days: ClosedRange<Int> = 1...16
}

/// The steps a forecast answer carries in `entries`, after Home Assistant's forecast types.
package enum ForecastType: String, CaseIterable, Sendable {
    /// 3-hourly steps, as both providers give them.
    case threeHourly
    /// Hourly steps for the next 48 hours (Open-Meteo and OpenWeatherMap One Call; not OpenWeatherMap 2.5).
    case hourly
    /// No steps: the days are the forecast.
    case daily
    /// Day and night halves, split by the place's sunrise and sunset.
    case twiceDaily

    /// How many hourly steps an hourly answer has at most: the hour running now and the 47 after it, the
    /// next 48 hours.
    package static let hourlySteps = 48
}

/// A page of a list: at most `limit` items from `offset` (the cursor `o<offset>`).
package struct PageRequest: Sendable, Equatable {
    package var limit: Int
    package var offset: Int

    package init(limit: Int, offset: Int = 0) {
        self.limit = limit
        self.offset = offset
    }

    /// The bytes of JSON a page's items may take, so no answer line grows past what common line readers
    /// handle (about 60 KiB; a page holds one item at least).
    package static let byteBudget = 60 * 1024
}

/// A favorite to add: a city to geocode, or a name at coordinates.
package enum NewFavorite: Sendable, Equatable {
    case city(String)
    case place(name: String, at: Coordinates, country: String?)
}

/// Where `location/set` moves to: coordinates, or an address to geocode.
package enum NewLocation: Sendable, Equatable {
    case coordinates(Coordinates)
    case address(String)
}

/// Which places a refresh covers.
package enum RefreshScope: String, CaseIterable, Sendable {
    case all, favorites, current
}

/// The changes of `alerts/configure`; nil leaves a setting as it is.
package struct AlertConfiguration: Sendable, Equatable {
    package var dailySummaryEnabled: Bool?
    /// Minutes after local midnight.
    package var dailySummaryMinutes: Int64?
    package var tempDropC: Double?
    package var severe: Bool?
    /// Whether official warnings raise alerts.
    package var official: Bool?
    /// Whether the European AQI raises `air_quality` alerts, and from which level.
    package var airQualityEnabled: Bool?
    package var airQualityLevel: EuropeanAQILevel?
    /// Whether a change of the next minutes' precipitation raises `nowcast` alerts.
    package var nowcast: Bool?
    /// Whether a changed forecast of the next three days raises `forecast_change` alerts.
    package var forecastChange: Bool?

    package init(
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
package struct EventFilter: Sendable, Equatable {
    package var afterSeq: Int64
    package var types: Set<String>?
    package var since: Timestamp?
    package var until: Timestamp?
    package var limit: Int

    package init(
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
