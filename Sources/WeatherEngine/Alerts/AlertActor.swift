import EventLog
import Providers
import WeatherDomain
import WeatherRuntime

/// Decides alerts as weather is fetched and as the daily-summary time comes. Connections that
/// subscribed follow `alert.raised` on the bus themselves.
///
/// It follows the log from where it stood at start-up (so replay never reaches it, and nothing is
/// re-raised or pushed after a restart), each event once however far behind it falls; the (place,
/// rule, local date) keys folded from `alert.raised` stop a second raise of the same alert.
package actor AlertActor {
    let cache: StateActor<WeatherCache>
    private let favorites: StateActor<FavoritesState>
    private let location: StateActor<LocationState>
    let alerts: StateActor<AlertState>
    private let follower: LogFollower
    /// The last seq the alert rules have handled (every event, not only fetches).
    nonisolated let handled = Watermark()
    let clock: any RuntimeClock
    /// Where the start-up scan of the log runs.
    private let pool: BlockingPool
    let logger: Logger
    /// The last current temperature fetched per place key, for the temperature-drop rule.
    private var previous: [String: (temperature: Double, at: Timestamp)] = [:]
    /// The first message of each official warning's thread of updates, for the `official` rule; seeded from
    /// the cached warnings at start (`AlertActor+Official.swift`).
    var lineage = OfficialAlerts.Lineage()
    /// Place key → local date → the first forecast of the date fetched once it was within the
    /// `forecast_change` rule's days: the rule's baseline until an alert tells of the date
    /// (`AlertActor+ForecastChange.swift`).
    var horizonFirst: [String: [String: ForecastRevision]] = [:]
    /// The ensemble model whose cached spread a forecast that publishes none carries (`--ensemble-model`).
    let ensembleModel: String

    init(
        cache: StateActor<WeatherCache>, favorites: StateActor<FavoritesState>, location: StateActor<LocationState>,
        alerts: StateActor<AlertState>, follower: LogFollower, clock: any RuntimeClock, pool: BlockingPool,
        logger: Logger, ensembleModel: String
    ) {
        self.ensembleModel = ensembleModel
        self.cache = cache
        self.favorites = favorites
        self.location = location
        self.alerts = alerts
        self.follower = follower
        self.clock = clock
        self.pool = pool
        self.logger = logger
    }

    /// Follows the log until cancelled; checks the daily summaries every `summaryCheckInterval` of its clock
    /// (nil: never).
    func run(summaryCheckInterval: Duration?) async {
        let startSeq = follower.lastSeq
        handled.raise(to: startSeq)
        previous = await cache.read { cache in
            cache.current.mapValues { ($0.value.current.temperature, $0.fetchedAt) }
        }
        await seedLineage()
        await seedForecastBaselines(
            scan: ForecastLogScan(
                directory: follower.directory, writer: follower.writer, health: follower.logHealth, pool: pool))
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.follow(after: startSeq) }
            guard let summaryCheckInterval else { return }
            group.addTask { [clock] in
                while !Task.isCancelled {
                    do { try await clock.sleep(for: summaryCheckInterval) } catch { return }
                    await self.checkDailySummaries()
                }
            }
        }
    }

    /// Decides on every `weather.fetched` committed from now on, each once, however far behind it falls.
    private nonisolated func follow(after startSeq: Int64) async {
        do {
            try await follower.follow(after: startSeq) { envelope in
                await self.handle(envelope)
                self.handled.raise(to: envelope.seq)
            }
        } catch {
            logger.error("alerts stopped following the log: \(error)")
        }
    }

    private func handle(_ envelope: EventEnvelope) async {
        guard envelope.type == "weather.fetched" || envelope.type == "nowcast.changed" else { return }
        let event: DomainEvent
        do {
            guard case .event(let decoded) = try envelope.decodedEvent() else { return }
            event = decoded
        } catch {
            logger.error("alerts cannot read seq \(envelope.seq): \(error)")
            return
        }
        switch event {
        case .weatherFetched(let fetched):
            await decide(after: fetched, cause: "event:\(envelope.seq)")
        case .nowcastChanged(let changed):
            await decide(after: changed, cause: "event:\(envelope.seq)")
        default:
            break
        }
    }

    private func decide(after fetched: WeatherFetched, cause: String) async {
        let now = clock.timestamp()
        let targets = await targets(for: fetched.key)
        let before = previous[fetched.key]
        if case .current(let report) = fetched.report {
            previous[fetched.key] = (report.current.temperature, fetched.call.at)
        }
        let currentTemperature = previous[fetched.key]?.temperature
        // The place's clocks, looked up once (outside the decisions, which stay pure).
        let zone =
            switch fetched.report {
            case .current(let report): report.zone(around: now)
            case .forecast(let report): report.zone(around: now)
            }
        for target in targets {
            await append(cause: cause) { state in
                switch fetched.report {
                case .current(let report):
                    AlertRules.afterCurrent(
                        state, target: target, report: report, previous: before, zone: zone, now: now)
                case .forecast(let report):
                    AlertRules.afterForecast(
                        state, target: target, report: report, currentTemperature: currentTemperature, zone: zone,
                        now: now)
                }
            }
        }
        if case .forecast(let report) = fetched.report {
            await decideForecastChange(
                key: fetched.key, report: report, fetchedAt: fetched.call.at, zone: zone, now: now, cause: cause)
        }
    }

    private func checkDailySummaries() async {
        let now = clock.timestamp()
        let forecasts = await cache.read { $0.forecast }
        for (key, cached) in forecasts {
            let zone = cached.value.zone(around: now)
            for target in await targets(for: key) {
                await append(cause: "timer:daily_summary") { state in
                    AlertRules.dailySummary(state, target: target, forecast: cached.value, zone: zone, now: now)
                }
            }
        }
    }

    /// The keys of every place with alerts on.
    func targetKeys() async -> Set<String> {
        var keys = await favorites.read { state in
            Set(state.items.filter(\.notify).map { Place.key(lat: $0.lat, lon: $0.lon) })
        }
        if let here = await location.read({ $0.current }) { keys.insert(Place.key(lat: here.lat, lon: here.lon)) }
        return keys
    }

    /// The places with alerts on at `key`: favorites with `notify` (found by key, not by a scan), and the current
    /// location.
    func targets(for key: String) async -> [AlertTarget] {
        var targets = await favorites.read { state in
            state.favorites(atKey: key).filter(\.notify).map {
                AlertTarget(
                    place: Place(name: $0.name, country: $0.country, state: nil, lat: $0.lat, lon: $0.lon),
                    favoriteId: $0.id)
            }
        }
        if let here = await location.read({ $0.current }), Place.key(lat: here.lat, lon: here.lon) == key {
            targets.append(
                AlertTarget(
                    place: Place(name: here.name, country: nil, state: nil, lat: here.lat, lon: here.lon),
                    favoriteId: nil))
        }
        return targets
    }

    func append(cause: String, _ decide: @escaping @Sendable (AlertState) -> [DomainEvent]) async {
        do {
            let submission = try await alerts.submit(cause: cause, corr: nil, decide)
            _ = try await alerts.commit(submission)
        } catch {
            logger.error("an alert could not be recorded: \(error)")
        }
    }
}
