import Providers
import WeatherDomain

/// What the nowcast sources said for a place: the answer of the best that serves it, and why each one tried
/// before it did not.
package struct NowcastFetch: Sendable {
    /// The answer; nil when no source serves the place.
    package var answer: FetchAnswer<Nowcast>?
    /// Each source passed over, in order, with why.
    package var passedOver: [(source: Nowcast.Source, reason: String)]
}

/// A nowcast source failing at a place: how many times in a row, why the last time, and when it may be asked
/// again.
struct NowcastBackoff: Sendable {
    var failures: Int
    var reason: String
    var retryAt: Timestamp
}

extension FetchActor {
    /// The longest a failing nowcast source is left alone at a place.
    static let maxNowcastBackoff: Duration = .seconds(3600)

    /// The next minutes' precipitation at `place`, from the first source in the configured order that serves it:
    /// MET Norway where its radar covers the place, One Call's `minutely` when configured, else Open-Meteo's
    /// `minutely_15`. A source that cannot be reached is passed over for the next; each source's answer is
    /// cached for its cadence (or its own `Expires`), so ten watchers cost one call.
    ///
    /// A source whose call failed at the place is not asked there again before its backoff ends (its cadence,
    /// doubled with each failure in a row, at most `maxNowcastBackoff`), unless `refresh` asks; its last answer,
    /// if any, is kept in reserve meanwhile.
    package func nowcast(at place: Place, refresh: Bool = false, cause: String) async throws -> NowcastFetch {
        let sources = self.sources.nowcast
        var passedOver: [(source: Nowcast.Source, reason: String)] = []
        // A source's older answer, served when it cannot be reached, is kept only in case no later source answers.
        var staleFallback: FetchAnswer<Nowcast>?
        for source in sources.enabled {
            if let reason = sources.unavailable(source, lat: place.lat, lon: place.lon) {
                passedOver.append((source, reason))
                continue
            }
            guard let request = sources.request(source, lat: place.lat, lon: place.lon) else { continue }
            let entry = NowcastFetched.entry(source: source, key: place.key)
            if !refresh, let backoff = nowcastBackoff[entry], clock.timestamp() < backoff.retryAt {
                passedOver.append((source, "\(backoff.reason); not asked again before \(backoff.retryAt)"))
                if staleFallback == nil, let cached = await cache.read({ $0.nowcasts[entry] }),
                    !cached.value.ahead(of: clock.timestamp(), horizonMinutes: 60).isEmpty
                {
                    staleFallback = FetchAnswer(cached, source: "cache", stale: true)
                }
                continue
            }
            let answer: FetchAnswer<Nowcast>
            do {
                answer = try await nowcast(source, request: request, at: place, refresh: refresh, cause: cause)
            } catch let error as ProviderError {
                let reason = Self.reason(error, source: source)
                noteFailure(entry, source: source, reason: reason)
                passedOver.append((source, reason))
                continue
            }
            if answer.stale {
                noteFailure(entry, source: source, reason: "cannot be reached now")
            } else if answer.source == "network" {
                nowcastBackoff[entry] = nil
            }
            if let coverage = answer.value.radarCoverage, coverage != "ok" {
                passedOver.append((source, "its radar reports \"\(coverage)\" here"))
                continue
            }
            if answer.value.ahead(of: clock.timestamp(), horizonMinutes: 60).isEmpty {
                passedOver.append((source, "its answer has no steps from now on"))
                continue
            }
            if answer.stale {
                passedOver.append(
                    (source, "cannot be reached now; its answer of \(answer.fetchedAt) is kept in reserve"))
                staleFallback = staleFallback ?? answer
                continue
            }
            return NowcastFetch(answer: answer, passedOver: passedOver)
        }
        return NowcastFetch(answer: staleFallback, passedOver: passedOver)
    }

    /// Why a source's call failed, said after the source's name: the error's situation without the name it
    /// begins with or its closing full stop ("sent a response weatherd cannot read (…)").
    static func reason(_ error: ProviderError, source: Nowcast.Source) -> String {
        var reason = error.situation
        if reason.hasPrefix(source.rawValue + " ") { reason.removeFirst(source.rawValue.count + 1) }
        while reason.hasSuffix(".") { reason.removeLast() }
        return reason
    }

    /// Counts a failure of `source` at the entry's place and starts (or doubles) its backoff.
    private func noteFailure(_ entry: String, source: Nowcast.Source, reason: String) {
        let now = clock.timestamp()
        if nowcastBackoff.count >= WeatherCache.capacity {
            nowcastBackoff = nowcastBackoff.filter { now < $0.value.retryAt }
        }
        let failures = (nowcastBackoff[entry]?.failures ?? 0) + 1
        let wait = FetchPolicy.backoff(
            first: .seconds(NowcastSources.cadenceSeconds(source)), failures: failures, cap: Self.maxNowcastBackoff)
        nowcastBackoff[entry] = NowcastBackoff(
            failures: failures, reason: reason,
            retryAt: Timestamp(milliseconds: now.milliseconds + wait.milliseconds))
    }

    private func nowcast(
        _ source: Nowcast.Source, request: ProviderRequest, at place: Place, refresh: Bool, cause: String
    ) async throws -> FetchAnswer<Nowcast> {
        let key = place.key
        let entry = NowcastFetched.entry(source: source, key: key)
        let sources = self.sources.nowcast
        let (lat, lon) = (place.lat, place.lon)
        let answer = try await fetch(
            kind: NowcastFetched.fetchKind, key: key, maxAgeMs: nil, refresh: refresh, cause: cause, request: request,
            source: source.rawValue, ttlMs: NowcastSources.cadenceSeconds(source) * 1000,
            cached: { cache in
                cache.nowcasts[entry].map {
                    Cached(value: .nowcast($0.value), fetchedAt: $0.fetchedAt, provider: $0.provider)
                }
            }
        ) { (body: [UInt8], call: UpstreamCall) throws(ProviderError) -> (FetchedValue, DomainEvent) in
            let nowcast = try sources.decode(source, body, lat: lat, lon: lon)
            // MET Norway answers 203 for a product version it has deprecated: kept, and said in the event.
            let warnings =
                call.status == 203
                ? ["\(source.rawValue) answered 203 Non-Authoritative Information: this product version is deprecated"]
                : []
            return (
                .nowcast(nowcast),
                .nowcastFetched(NowcastFetched(key: key, call: call, nowcast: nowcast, warnings: warnings))
            )
        }
        guard case .nowcast(let nowcast) = answer.value else {
            throw EngineError.inconsistent("a nowcast fetch answered with another kind")
        }
        return answer.map(nowcast)
    }
}
