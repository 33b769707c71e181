import EventLog
import WeatherDomain
import WeatherRuntime

extension ForecastLogScan {
    /// What verification reads of one place out of the committed log.
    package struct Verified: Sendable, Equatable {
        /// Every forecast of the place fetched, with all its days (whole, or as compaction reduced them).
        package var forecasts: [Fetch]
        /// Every current temperature of the place fetched from a provider that observes (not MET Norway, whose
        /// current conditions are its forecast's first hour), whole or as compaction reduced it.
        package var readings: [Reading]
        /// The events read.
        package var scanned: Int64
    }

    /// The forecasts and current readings fetched for `key` from `notBefore` on, oldest first.
    package func verification(key: String, notBefore: Timestamp) throws -> Verified {
        let committed = writer.status
        let firstSeq = try firstSeq(notBefore: notBefore, end: committed.end)
        var verified = Verified(forecasts: [], readings: [], scanned: 0)
        let keyJSON = JSONValue.string(key)
        _ = try health.readCommitted(
            directory: directory, start: writer.index.start(after: firstSeq - 1), limit: committed.end
        ) { envelope, _ in
            guard envelope.seq >= firstSeq else { return true }
            verified.scanned += 1
            guard envelope.ts >= notBefore else { return true }
            try Self.collect(envelope, key: keyJSON, into: &verified)
            return true
        }
        return verified
    }

    /// `verification(key:notBefore:)` in the blocking pool, so the reads never hold a thread of the cooperative
    /// pool.
    func verificationInPool(key: String, notBefore: Timestamp) async throws -> Verified {
        try await pool.run { try verification(key: key, notBefore: notBefore) }
    }

    /// The whole log of `directory` read for what verification needs of `key`, without a writer (for tests that
    /// compare with a direct computation).
    package static func readAllForVerification(directory: String, key: String) throws -> Verified {
        var verified = Verified(forecasts: [], readings: [], scanned: 0)
        _ = try LogReader.read(directory: directory) { envelope, _ in
            verified.scanned += 1
            try collect(envelope, key: .string(key), into: &verified)
            return true
        }
        return verified
    }

    /// Adds `envelope` to `verified` when it is a `weather.fetched` of `key`: a forecast's days, or a current
    /// temperature of a provider that observes. Only the few members needed are parsed.
    static func collect(_ envelope: EventEnvelope, key: JSONValue, into verified: inout Verified) throws {
        guard envelope.type == "weather.fetched", envelope.v == 1 else { return }
        let members = try envelope.data.withUnsafeBytes {
            try JSONValue.parseMembers($0, keeping: ["key", "kind", "daily", "current", "fetchedAt", "provider"])
        }
        guard members["key"] == key else { return }
        let provider = members["provider"]?.stringValue ?? ""
        let fetchedAt = members["fetchedAt"]?.stringValue.flatMap(Timestamp.init(rfc3339:)) ?? envelope.ts
        switch members["kind"] {
        case .string("forecast")?:
            guard case .array(let items)? = members["daily"] else { return }
            var days: [DailySummary] = []
            for (index, item) in items.enumerated() {
                days.append(try DailySummary(json: item, path: "data.daily[\(index)]"))
            }
            if !days.isEmpty {
                verified.forecasts.append(Fetch(fetchedAt: fetchedAt, provider: provider, days: days))
            }
        case .string("current")?:
            guard provider != "met-norway", let current = members["current"],
                let temperature = current["temperature"]?.doubleValue,
                let observedAt = current["observedAt"]?.stringValue.flatMap(Timestamp.init(rfc3339:))
            else { return }
            verified.readings.append(Reading(at: observedAt, temperature: temperature))
        default:
            return
        }
    }
}
