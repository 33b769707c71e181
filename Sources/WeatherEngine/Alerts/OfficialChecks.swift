import WeatherDomain
import WeatherRuntime

extension Engine {
    /// Checks the official warnings (and, when the `air_quality` rule is on, the air quality) of every place
    /// with alerts on: the current location and each favorite with `notify`. Each place's data comes through
    /// the fetch path (so a MeteoAlarm feed or an NWS point is asked at most once per 5 minutes, air quality
    /// once an hour, and a location set by coordinates has its coverage learned once, as `warnings/list`
    /// learns it), and the alert rules decide on it. Runs after each refresh and every
    /// `--warnings-interval`; a place whose source cannot be reached is skipped until the next check.
    ///
    /// - Parameter keys: the place keys to check (those just refreshed); all places with alerts on when nil.
    func checkOfficial(only keys: Set<String>? = nil, cause: String) async {
        let settings = await alerts.read { $0.settings }
        guard settings.official || settings.airQualityEnabled else { return }
        let known = await knownPlaces()
        for target in await alertTargets(at: keys) {
            if Task.isCancelled { return }
            let place = known.describe(target.place)
            let described = AlertTarget(place: place, favoriteId: target.favoriteId)
            if settings.official {
                do {
                    let answer = try await warningsAnswer(at: place, cause: cause)
                    // The place as its coverage described it (a point's country and region, once learned).
                    await alertActor.official(
                        AlertTarget(place: answer.place, favoriteId: target.favoriteId), warnings: answer.warnings,
                        attribution: WarningsAnswer.attribution, cause: cause)
                } catch {
                    logger.info("the official warnings of \(place.name ?? place.key) were not checked: \(error)")
                }
            }
            if settings.airQualityEnabled {
                do {
                    let answer = try await airQualityAnswer(at: place, cause: cause)
                    await alertActor.airQuality(described, report: answer.report, cause: cause)
                } catch {
                    logger.info("the air quality of \(place.name ?? place.key) was not checked: \(error)")
                }
            }
        }
    }

    /// The places with alerts on: the current location, then every favorite with `notify`; only those at `keys`
    /// when given (found by key, not by a scan).
    func alertTargets(at keys: Set<String>? = nil) async -> [AlertTarget] {
        var targets: [AlertTarget] = []
        if let here = await location.read({ $0.current }),
            keys?.contains(Place.key(lat: here.lat, lon: here.lon)) ?? true
        {
            targets.append(
                AlertTarget(
                    place: Place(name: here.name, country: nil, state: nil, lat: here.lat, lon: here.lon),
                    favoriteId: nil))
        }
        await favorites.barrier()?.settled()
        targets += await favorites.read { state in
            let favorites = keys.map { $0.sorted().flatMap(state.favorites(atKey:)) } ?? state.items
            return favorites.filter(\.notify).map {
                AlertTarget(
                    place: Place(name: $0.name, country: $0.country, state: nil, lat: $0.lat, lon: $0.lon),
                    favoriteId: $0.id)
            }
        }
        return targets
    }

    /// Checks the official warnings every `interval` of the engine's clock until cancelled
    /// (`--warnings-interval`; the service runs it, and so do tests). Its work carries `cause: "timer:warnings"`.
    package func runOfficialChecks(every interval: Duration) async {
        while !Task.isCancelled {
            do { try await clock.sleep(for: interval) } catch { return }
            await checkOfficial(cause: "timer:warnings")
        }
    }
}

/// Checks the official warnings of the places with alerts on, every `--warnings-interval`.
struct OfficialChecksService: Service {
    let engine: Engine
    let interval: Duration

    func run() async throws {
        try await cancelOnGracefulShutdown { [engine, interval] in await engine.runOfficialChecks(every: interval) }
    }
}
