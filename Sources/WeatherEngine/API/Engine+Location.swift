import EventLog
import Providers
import WeatherDomain
import WeatherRuntime

/// One place's outcome in a refresh.
package struct RefreshOutcome: Sendable, Equatable {
    /// The current location, a favorite by its id, or another place a refresh named (by city or coordinates).
    package enum Target: Sendable, Equatable {
        case current
        case favorite(id: String)
        case place
    }

    package var target: Target
    package var place: Place
    /// The stable kind of what went wrong (`RefreshFailure`); nil when both fetches worked.
    package var failure: String?
}

/// A refresh's answer: each place's outcome, the current location first.
package struct RefreshReport: Sendable, Equatable {
    /// The places asked for; nil when the refresh named one place.
    package var scope: RefreshScope?
    package var results: [RefreshOutcome]

    package init(scope: RefreshScope?, results: [RefreshOutcome]) {
        self.scope = scope
        self.results = results
    }
}

extension Engine {
    /// Moves the current location: to coordinates (rounded before they are logged), or to an address,
    /// geocoded in the completion (the move is decided once the geocoding is done, and goes out in one append
    /// with its events). A move of 5 km or more refreshes every place in the background.
    package func setLocation(_ target: NewLocation, origin: Origin) async throws -> Completion<Location> {
        switch target {
        case .address(let address):
            return Completion {
                let move = try await self.slices.committing { batch in
                    let place = try await self.lookUpAddress(address, cause: origin.cause, batch: batch)
                    let decide = self.decideMove(lat: place.lat, lon: place.lon, name: place.name ?? address)
                    return batch.add(self.location.part(cause: origin.cause, corr: origin.corr, decide))
                }
                let committed = try await move.committed()
                return try self.moved(committed.last?.event, seq: committed.last?.seq)
            }
        case .coordinates(let point):
            let submission = try await location.submit(
                cause: origin.cause, corr: origin.corr, decideMove(lat: point.lat, lon: point.lon, name: nil))
            return Completion {
                let envelopes = try await self.location.commit(submission)
                return try self.moved(submission.events.last, seq: envelopes.last?.seq)
            }
        }
    }

    /// The decision of a move to these coordinates, taken now.
    private func decideMove(lat: Double, lon: Double, name: String?) -> @Sendable (LocationState) -> [DomainEvent] {
        let now = clock.timestamp()
        let precision = locationPrecision
        return { state in LocationDecisions.set(state, lat: lat, lon: lon, name: name, precision: precision, now: now) }
    }

    /// Answers a durable move (its `location.changed` at `seq`) and, when it triggered one, starts the refresh of
    /// the current place and every favorite in the background (its fetches are caused by the `location.changed`
    /// event).
    private func moved(_ event: DomainEvent?, seq: Int64?) throws -> Location {
        guard case .locationChanged(let moved)? = event else {
            throw EngineError.inconsistent("a move decided no location.changed")
        }
        refreshAfter(moved, seq: seq)
        return moved
    }

    /// When the committed move `moved` (its event at `seq`) triggered a refresh, starts it in the background,
    /// caused by its event.
    func refreshAfter(_ moved: Location, seq: Int64?) {
        guard moved.refresh, let seq else { return }
        background.start {
            do {
                _ = try await self.refresh(.all, cause: "event:\(seq)")
            } catch {
                self.logger.warning("the refresh after a move failed: \(error)")
            }
        }
    }

    /// Geocodes an address to its best candidate (not recorded in the search history), its events in `batch`.
    func lookUpAddress(_ address: String, cause: String, batch: ChangeBatch) async throws -> Place {
        guard let place = try await fetcher.geocode(address, limit: 1, cause: cause, batch: batch).value.first else {
            throw DomainError.placeNotFound(address)
        }
        return place
    }

    /// Fetches current weather and forecast for every place in `scope`, ignoring freshness, four at a
    /// time; answers per place whether it worked. The places' warnings, air quality and watched nowcasts are
    /// then checked in the background (`refreshKept`).
    ///
    /// - Parameter onPlace: called as each place finishes, with its result, how many places are done
    ///   and how many there are in all (MCP's progress notifications).
    package func refresh(
        _ scope: RefreshScope, only: Set<String>? = nil, cause: String,
        onPlace: (@Sendable (_ result: RefreshOutcome, _ done: Int, _ total: Int) -> Void)? = nil
    ) async throws -> RefreshReport {
        let places = await refreshPlaces(scope, only: only)
        let (fetcher, slices) = (self.fetcher, self.slices)
        let results = await withTaskGroup(of: (Int, RefreshOutcome).self) { group in
            var next = 0
            var results: [RefreshOutcome?] = Array(repeating: nil, count: places.count)
            func startNext() {
                guard next < places.count else { return }
                let index = next
                let (label, place) = places[index]
                next += 1
                group.addTask {
                    (index, await Self.refreshWeather(label, at: place, fetcher: fetcher, slices: slices, cause: cause))
                }
            }
            for _ in 0..<4 { startNext() }
            var done = 0
            while let (index, outcome) = await group.next() {
                results[index] = outcome
                done += 1
                onPlace?(outcome, done, places.count)
                // Once cancelled (at shutdown, or by the client), the places not yet started are not started.
                if Task.isCancelled {
                    while next < places.count {
                        results[next] = RefreshOutcome(
                            target: places[next].label, place: places[next].place, failure: "cancelled")
                        next += 1
                    }
                } else {
                    startNext()
                }
            }
            return results.compactMap { $0 }
        }
        // The rest the places keep (warnings, air quality, watched nowcasts) follows in the background: the
        // answer does not wait.
        let keys = only.map { _ in Set(places.map(\.place.key)) }
        background.start { await self.refreshKept(at: keys, cause: cause) }
        return RefreshReport(scope: scope, results: results)
    }

    /// Fetches the current weather and forecast at `place`, whatever their freshness (the rate limit holds), their
    /// events in `batch`.
    static func refreshWeather(
        _ target: RefreshOutcome.Target, at place: Place, fetcher: FetchActor, cause: String, batch: ChangeBatch
    ) async -> RefreshOutcome {
        do {
            _ = try await fetcher.current(at: place, refresh: true, cause: cause, batch: batch)
            _ = try await fetcher.forecast(at: place, refresh: true, cause: cause, batch: batch)
            return RefreshOutcome(target: target, place: place, failure: nil)
        } catch {
            return RefreshOutcome(target: target, place: place, failure: RefreshFailure.kind(of: error))
        }
    }

    /// `refreshWeather` in a batch of its own: the place's events go out as one append.
    static func refreshWeather(
        _ target: RefreshOutcome.Target, at place: Place, fetcher: FetchActor, slices: SliceWriter, cause: String
    ) async -> RefreshOutcome {
        do {
            return try await slices.committing { batch in
                await refreshWeather(target, at: place, fetcher: fetcher, cause: cause, batch: batch)
            }
        } catch {
            return RefreshOutcome(target: target, place: place, failure: RefreshFailure.kind(of: error))
        }
    }

    /// The places a refresh of `scope` fetches, each with its label in the answer: the current place first
    /// (`current`), then the favorites (their ids), those in `only` when it is given.
    private func refreshPlaces(_ scope: RefreshScope, only: Set<String>?) async
        -> [(label: RefreshOutcome.Target, place: Place)]
    {
        var places: [(label: RefreshOutcome.Target, place: Place)] = []
        if scope != .favorites, let here = await location.read({ $0.current }) {
            places.append((.current, Place(name: here.name, country: nil, state: nil, lat: here.lat, lon: here.lon)))
        }
        if scope != .current {
            for favorite in await favorites.read({ $0.items }) where only?.contains(favorite.id) ?? true {
                places.append(
                    (
                        .favorite(id: favorite.id),
                        Place(
                            name: favorite.name, country: favorite.country, state: nil, lat: favorite.lat,
                            lon: favorite.lon)
                    ))
            }
        }
        return places
    }
}

extension Engine {
    /// The scheduler's refresh: the favorites (those in `only`, or all), returning the ids that failed.
    func refreshFavorites(only: Set<String>?) async -> Set<String> {
        do {
            let report = try await refresh(.favorites, only: only, cause: "timer:refresh")
            return Set(
                report.results.compactMap { outcome in
                    guard outcome.failure != nil, case .favorite(let id) = outcome.target else { return nil }
                    return id
                })
        } catch {
            logger.warning("the scheduled refresh failed: \(error)")
            return only ?? []
        }
    }
}

/// The stable kind of a refresh failure.
enum RefreshFailure {
    static func kind(of error: any Error) -> String {
        switch error {
        case let error as any EngineFailure: error.kind
        case let error as ProviderError: error.kind.rawValue
        case is CancellationError: "cancelled"
        default: "internal_error"
        }
    }
}
