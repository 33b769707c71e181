import EventLog
import WeatherDomain
import WeatherRuntime

/// Reads every forecast of some local dates at one place out of the committed log: the `daily` figures of each
/// `weather.fetched` forecast of the place's key, full or as compaction reduced them.
///
/// A forecast reaches at most 16 days ahead, so only fetches from `notBefore` on can hold the dates; the
/// scan starts near the first event written then (a binary search over the seq index, reading one line per
/// probe) and reads to the committed end. It writes nothing and makes no upstream call.
package struct ForecastLogScan {
    let directory: String
    let writer: LogWriter
    let health: LogHealth
    /// Where the blocking reads run.
    let pool: BlockingPool

    /// One fetch's figures for the dates asked about.
    package struct Fetch: Sendable, Equatable {
        package var fetchedAt: Timestamp
        package var provider: String
        package var days: [DailySummary]
    }

    /// The forecasts of `dates` fetched for `key` from `notBefore` on, oldest first; the events read.
    package func run(key: String, dates: Set<String>, notBefore: Timestamp) throws -> (fetches: [Fetch], scanned: Int64)
    {
        let committed = writer.status
        let firstSeq = try firstSeq(notBefore: notBefore, end: committed.end)
        var fetches: [Fetch] = []
        var scanned: Int64 = 0
        let keyJSON = JSONValue.string(key)
        _ = try health.readCommitted(
            directory: directory, start: writer.index.start(after: firstSeq - 1), limit: committed.end
        ) { envelope, _ in
            guard envelope.seq >= firstSeq else { return true }
            scanned += 1
            guard envelope.ts >= notBefore, let fetch = try Self.fetch(in: envelope, key: keyJSON, dates: dates) else {
                return true
            }
            fetches.append(fetch)
            return true
        }
        return (fetches, scanned)
    }

    /// `run` in the blocking pool, so the reads never hold a thread of the cooperative pool.
    func runInPool(key: String, dates: Set<String>, notBefore: Timestamp) async throws -> (
        fetches: [Fetch], scanned: Int64
    ) {
        try await pool.run { try run(key: key, dates: dates, notBefore: notBefore) }
    }

    /// The whole log of `directory` read for the forecasts of `dates` fetched for `key`, without a writer: for
    /// the bench, which times the scan over a dashboard's day.
    package static func readAll(directory: String, key: String, dates: Set<String>) throws -> [Fetch] {
        var fetches: [Fetch] = []
        _ = try LogReader.read(directory: directory) { envelope, _ in
            if let fetch = try fetch(in: envelope, key: .string(key), dates: dates) { fetches.append(fetch) }
            return true
        }
        return fetches
    }

    /// The days of `dates` in `envelope` when it is a `weather.fetched` forecast of `key` (whole, or as
    /// compaction reduced it); nil otherwise. Only the few members needed are parsed.
    static func fetch(in envelope: EventEnvelope, key: JSONValue, dates: Set<String>) throws -> Fetch? {
        guard envelope.type == "weather.fetched", envelope.v == 1 else { return nil }
        let members = try envelope.data.withUnsafeBytes {
            try JSONValue.parseMembers($0, keeping: ["key", "kind", "daily", "fetchedAt", "provider"])
        }
        guard members["key"] == key, members["kind"] == .string("forecast"), case .array(let items)? = members["daily"]
        else { return nil }
        var days: [DailySummary] = []
        for (index, item) in items.enumerated() {
            guard case .string(let date)? = item["date"], dates.contains(date) else { continue }
            days.append(try DailySummary(json: item, path: "data.daily[\(index)]"))
        }
        guard !days.isEmpty else { return nil }
        let fetchedAt = members["fetchedAt"]?.stringValue.flatMap(Timestamp.init(rfc3339:)) ?? envelope.ts
        return Fetch(fetchedAt: fetchedAt, provider: members["provider"]?.stringValue ?? "", days: days)
    }

    /// The seq to read from so that no event written at or after `notBefore` is missed: the first seq of the
    /// last indexed stretch (`SeqIndex.stride` events) that begins before it. Event times only grow along the
    /// log, so a binary search over the indexed lines' times finds it; a probe reads one line.
    func firstSeq(notBefore: Timestamp, end: LogEnd) throws -> Int64 {
        let index = writer.index
        let slots = index.entries.count
        guard slots > 1 else { return 1 }
        var (low, high) = (0, slots - 1)  // the answer is in low...high
        while low < high {
            let middle = (low + high + 1) / 2
            let seq = Int64(middle) * SeqIndex.stride + 1
            if let time = try time(of: seq, index: index, end: end), time < notBefore {
                low = middle
            } else {
                high = middle - 1
            }
        }
        return Int64(low) * SeqIndex.stride + 1
    }

    /// The time of the event `seq`, or of the first one after it the log still holds (retention may have
    /// dropped it); nil past the committed end.
    private func time(of seq: Int64, index: SeqIndex, end: LogEnd) throws -> Timestamp? {
        var found: Timestamp?
        _ = try health.readCommitted(directory: directory, start: index.start(after: seq - 1), limit: end) {
            envelope, _ in
            guard envelope.seq >= seq else { return true }
            found = envelope.ts
            return false
        }
        return found
    }
}
