import WeatherDomain
import WeatherRuntime

extension Engine {
    /// The current location (`location/get`). With `autoLocation` (nil: the daemon's `--auto-location`, off
    /// unless given), a location weatherd finds itself stands in for one the client did not set: see
    /// `currentLocation(auto:cause:)`.
    package func currentLocation(autoLocation: Bool?, origin: Origin) async -> Completion<Location> {
        let auto = autoLocation ?? autoLocationDefault
        let barrier = await location.barrier()
        return Completion {
            await barrier?.settled()
            return try await self.currentLocation(auto: auto, cause: origin.cause)
        }
    }

    /// The current location. A location the client set is answered as it is. Without `auto`, none set is
    /// `no_location`. With it: when none is set, weatherd looks for one (GeoClue, else the time zone's city),
    /// records it (`location.changed` with its `source`) and answers it; when the one set was found so, it is
    /// answered at once and looked for again in the background, at most every `AutoLocating.recheckInterval`
    /// (counted from when it was recorded, for an engine that has not looked yet), and replaced when the machine
    /// moved 5 km or more (`LocationDecisions.found`).
    ///
    /// - Throws: `DomainError.noLocation` (with why nothing was found, when it looked), a storage failure, or
    ///   `CancellationError`.
    func currentLocation(auto: Bool, cause: String) async throws -> Location {
        // Wall time: the recheck is measured from when the location was recorded, a time in the log.
        let now = clock.wallNow
        if let current = await location.read({ $0.current }) {
            // Before this engine looked, the location's own time says when it was last found.
            let due = { (last: WallInstant?) in
                guard let last else {
                    let found = Duration.milliseconds(now.millisecondsSinceEpoch - current.setAt.milliseconds)
                    return found >= AutoLocating.recheckInterval
                }
                return now >= last.advanced(by: AutoLocating.recheckInterval)
            }
            if auto, current.source != nil, let (_, started) = autoLocating.join(at: now, due: due), started {
                background.start { await self.search(cause: cause) }
            }
            return current
        }
        guard auto else { throw DomainError.noLocation }
        guard let (search, started) = autoLocating.join(at: now, due: { _ in true }) else {
            throw EngineError.inconsistent("no search for the location was started")
        }
        if started { background.start { await self.search(cause: cause) } }
        guard let outcome = await search.waitUnlessCancelled() else { throw CancellationError() }
        return try outcome.get()
    }

    /// Looks for the machine's location and records it when `LocationDecisions.found` says so; ends the search
    /// in flight with the current location, or why there is none. Logs where it came from, never the
    /// coordinates.
    private func search(cause: String) async {
        let outcome: AutoLocating.Outcome
        do {
            let (found, serviceFailure) = try await autoLocator.locate(clock: clock)
            if let serviceFailure, let zone = found.zone {
                logger.info(
                    "auto-location: \(serviceFailure); taking the principal city of the time zone \(zone) (approximate)"
                )
            }
            let now = clock.timestamp()
            let precision = locationPrecision
            let submission = try await location.submit(cause: cause, corr: nil) { state in
                LocationDecisions.found(state, found, precision: precision, now: now)
            }
            let envelopes = try await location.commit(submission)
            if case .locationChanged(let moved)? = submission.events.last { refreshAfter(moved, envelopes) }
            guard let current = await location.read({ $0.current }) else {
                throw EngineError.inconsistent("a location was found but none is set")
            }
            outcome = .success(current)
        } catch let failure as AutoLocationFailure {
            logger.info("auto-location found nothing: \(failure)")
            outcome = .failure(DomainError.noLocationFound(because: failure.description))
        } catch {
            outcome = .failure(error)
        }
        autoLocating.finish(outcome)
    }
}
