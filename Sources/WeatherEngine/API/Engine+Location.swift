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
}

extension Engine {
    /// Moves the current location: to coordinates (rounded before they are logged), or to an address,
    /// geocoded in the completion. A move of 5 km or more refreshes every place in the background.
    package func setLocation(_ target: NewLocation, origin: Origin) async throws -> Completion<Location> {
        switch target {
        case .address(let address):
            return Completion {
                let place = try await self.lookUpAddress(address, cause: origin.cause)
                return try await self.setLocation(
                    lat: place.lat, lon: place.lon, name: place.name ?? address, origin: origin)()
            }
        case .coordinates(let point):
            return try await setLocation(lat: point.lat, lon: point.lon, name: nil, origin: origin)
        }
    }

    /// Decides and queues the move now; once durable, answers it and, when it triggered one, starts
    /// the refresh of the current place and every favorite in the background (its fetches are caused
    /// by the `location.changed` event).
    func setLocation(lat: Double, lon: Double, name: String?, origin: Origin) async throws -> Completion<Location> {
        let now = clock.timestamp()
        let precision = locationPrecision
        let submission = try await location.submit(cause: origin.cause, corr: origin.corr) { state in
            LocationDecisions.set(state, lat: lat, lon: lon, name: name, precision: precision, now: now)
        }
        return Completion {
            let envelopes = try await self.location.commit(submission)
            guard case .locationChanged(let moved)? = submission.events.last else {
                throw EngineError.inconsistent("a move decided no location.changed")
            }
            self.refreshAfter(moved, envelopes)
            return moved
        }
    }

    /// When the committed move `moved` triggered a refresh, starts it in the background, caused by its event.
    func refreshAfter(_ moved: Location, _ envelopes: [EventEnvelope]) {
        guard moved.refresh, let seq = envelopes.last?.seq else { return }
        background.start {
            do {
                _ = try await self.refresh(.all, cause: "event:\(seq)")
            } catch {
                self.logger.warning("the refresh after a move failed: \(error)")
            }
        }
    }

    /// Geocodes an address to its best candidate (not recorded in the search history).
    func lookUpAddress(_ address: String, cause: String) async throws -> Place {
        guard let place = try await fetcher.geocode(address, limit: 1, cause: cause).value.first else {
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
        let fetcher = self.fetcher
        let results = await withTaskGroup(of: (Int, RefreshOutcome).self) { group in
            var next = 0
            var results: [RefreshOutcome?] = Array(repeating: nil, count: places.count)
            func startNext() {
                guard next < places.count else { return }
                let index = next
                let (label, place) = places[index]
                next += 1
                group.addTask {
                    (index, await Self.refreshWeather(label, at: place, fetcher: fetcher, cause: cause))
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

    /// Fetches the current weather and forecast at `place`, whatever their freshness (the rate limit holds).
    static func refreshWeather(
        _ target: RefreshOutcome.Target, at place: Place, fetcher: FetchActor, cause: String
    ) async -> RefreshOutcome {
        do {
            _ = try await fetcher.current(at: place, refresh: true, cause: cause)
            _ = try await fetcher.forecast(at: place, refresh: true, cause: cause)
            return RefreshOutcome(target: target, place: place, failure: nil)
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
