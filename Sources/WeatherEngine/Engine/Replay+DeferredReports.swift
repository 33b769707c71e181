import EventLog
import WeatherDomain

extension Replay {
    /// The `weather.fetched` payloads a replay has not decoded in full yet: the last one per cache entry.
    ///
    /// A fetch's report lives in the cache only until the next fetch for the same place replaces it, and
    /// a realistic log holds many of them (a 5-day forecast is ~10 KB of JSON). Replay therefore folds
    /// each `weather.fetched` from its key, kind and audit facts alone (which is all the cache's
    /// bookkeeping reads: which entry, when, from whom), keeps its bytes while it is the last for its
    /// entry, and at the end decodes only the payloads still in the cache and puts their reports in
    /// place. The result is the state a full decode gives; the payloads that were replaced are checked
    /// for balance, not against their schema (their line's crc already holds).
    struct DeferredReports {
        private struct Pending {
            var seq: Int64
            var place: LinePlace
            var kind: WeatherKind
            var key: String
            var at: Timestamp
            var data: [UInt8]
        }

        private var latest: [String: Pending] = [:]
        /// The size at which `latest` is pruned next: twice what the last pruning kept, so pruning stays
        /// rare however many entries the cache holds.
        private var pruneAt = 4 * WeatherCache.capacity

        /// Whether `envelope` is folded here rather than decoded at once.
        static func handles(_ envelope: EventEnvelope, catalog: EventCatalog) -> Bool {
            envelope.type == "weather.fetched" && envelope.v == 1
                && catalog.upcasters[EventKind("weather.fetched", 1)] == nil
        }

        /// Folds a `weather.fetched` line in from its audit facts and keeps its payload for `finish`.
        mutating func fold(_ envelope: EventEnvelope, place: LinePlace, into state: inout WeatherState) throws {
            let parsed = envelope.data.withUnsafeBytes { bytes -> Swift.Result<[String: JSONValue], JSONParseError> in
                do throws(JSONParseError) {
                    return .success(try JSONValue.parseMembers(bytes, keeping: WeatherFetched.auditMembers))
                } catch {
                    return .failure(error)
                }
            }
            let audit: WeatherFetched
            do {
                audit = try WeatherFetched(auditOf: try parsed.get())
            } catch let error as JSONParseError {
                throw ReplayError(seq: envelope.seq, place: place, detail: "data is not valid JSON: \(error)")
            } catch {
                throw ReplayError(
                    seq: envelope.seq, place: place, detail: "weather.fetched v1 does not match its schema: \(error)")
            }
            state.apply(.weatherFetched(audit), seq: envelope.seq, corr: envelope.corr)
            latest["\(audit.kind.rawValue)|\(audit.key)"] = Pending(
                seq: envelope.seq, place: place, kind: audit.kind, key: audit.key, at: audit.call.at,
                data: envelope.data)
            if latest.count > pruneAt { prune(state.cache) }
        }

        /// Forgets payloads whose entry the cache has dropped, so memory follows the cache, not the log.
        private mutating func prune(_ cache: WeatherCache) {
            latest = latest.filter { cache.holds($0.value.kind, key: $0.value.key, at: $0.value.at) }
            pruneAt = max(4 * WeatherCache.capacity, 2 * latest.count)
        }

        /// Decodes the payloads still in the cache in full and puts their reports in place.
        ///
        /// - Throws: `ReplayError` for a payload that is not JSON or does not match its schema.
        func finish(into state: inout WeatherState, catalog: EventCatalog) throws {
            for pending in latest.values where state.cache.holds(pending.kind, key: pending.key, at: pending.at) {
                let outcome: EventCatalog.Outcome
                do {
                    outcome = try catalog.decode(
                        type: "weather.fetched", version: 1, data: try JSONValue.parse(pending.data))
                } catch {
                    throw ReplayError(
                        seq: pending.seq, place: pending.place, detail: "weather.fetched v1 cannot be read: \(error)")
                }
                guard case .event(.weatherFetched(let fetched)) = outcome else {
                    throw ReplayError(
                        seq: pending.seq, place: pending.place, detail: "weather.fetched v1 is not a fetch")
                }
                state.cache.fill(fetched)
            }
        }
    }
}
