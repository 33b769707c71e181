import EventLog
import Foundation
import WeatherDomain
import WeatherRuntime

extension Engine {
    /// One page of committed events matching `filter`, read from the log.
    package func queryEvents(_ filter: EventFilter) -> Completion<JSONValue> {
        Completion { try filter.run(directory: self.dataDirectory.path, writer: self.writer, health: self.logHealth) }
    }

    /// Replays the log into fresh state and compares it, slice by slice, with the live state.
    package func verify() async throws -> JSONValue {
        var live = WeatherState(commandWindow: info.commandWindow)
        var seq: Int64 = -1
        for _ in 0..<100 {
            let before = writer.status.lastSeq
            live.favorites = await favorites.read { $0 }
            live.history = await history.read { $0 }
            live.settings = await settings.read { $0 }
            live.location = await location.read { $0 }
            live.cache = await cache.read { $0 }
            live.alerts = await alerts.read { $0 }
            live.commands = registry.ledger
            if writer.status.lastSeq == before {
                seq = before
                break
            }
        }
        guard seq >= 0 else { throw EngineError.logKeptChanging }
        let replay: Replay.Result
        do {
            replay = try Replay.run(
                directory: dataDirectory.path, commandWindow: info.commandWindow, through: seq,
                limit: writer.status.end)
        } catch let damage as LogDamage {
            throw logHealth.report(damage)
        }
        if let tail = replay.outcome.tail, !replay.outcome.stopped {
            throw logHealth.report(
                LogDamage(
                    path: dataDirectory.logPath,
                    line: replay.outcome.position.nextSeq - replay.outcome.position.file + 1,
                    seq: replay.outcome.position.nextSeq, offset: tail.offset,
                    problem: LineProblem(tail.reason, "a committed line is damaged")))
        }
        let replayed = replay.state
        var slices: [String: JSONValue] = [:]
        var allEqual = true
        guard case .object(let liveSlices) = live.json, case .object(let replayedSlices) = replayed.json else {
            throw EngineError.inconsistent("a state's JSON is not an object of slices")
        }
        for (name, liveSlice) in liveSlices {
            let liveDigest = Digest.fnv1a(liveSlice.jsonBytes)
            let replayedDigest = Digest.fnv1a((replayedSlices[name] ?? .null).jsonBytes)
            let equal = liveSlice == replayedSlices[name]
            allEqual = allEqual && equal
            slices[name] = .object([
                "live": .string(liveDigest), "replayed": .string(replayedDigest), "equal": .bool(equal),
            ])
        }
        return .object([
            "ok": .bool(allEqual), "lastSeq": .int(seq), "slices": .object(slices),
            "live": .string(Digest.fnv1a(live.json.jsonBytes)),
            "replayed": .string(Digest.fnv1a(replayed.json.jsonBytes)),
        ])
    }

    /// The service's facts for `service/status`, with what the front added.
    package func status() async -> JSONValue {
        let writerStatus = writer.status
        let logFiles = try? LogFiles.list(directory: dataDirectory.path)
        let uptime = max(0, clock.timestamp().milliseconds - info.startedAt.milliseconds) / 1000
        var result: [String: JSONValue] = [
            "version": .string(info.version), "dataDir": .string(dataDirectory.path),
            "lastSeq": .int(writerStatus.lastSeq), "logBytes": .int(logFiles?.bytes ?? writerStatus.length),
            "segments": .int(Int64(logFiles?.segments.count ?? 0)),
            "uptimeSeconds": .int(uptime), "provider": .string(info.provider),
            "cacheTtlSeconds": .int(configuration.fetch.ttl.components.seconds),
            "forecastTtlSeconds": .int(configuration.fetch.forecastTTL.components.seconds),
            "upstreamCalls": await fetcher.upstreamCounts.json,
            "readOnly": .bool(writerStatus.failure != nil), "fsync": .string(info.fsync.rawValue),
            "batches": .int(Int64(writerStatus.batches)), "syncs": .int(Int64(writerStatus.syncs)),
            "pid": .int(Int64(ProcessInfo.processInfo.processIdentifier)), "startup": info.startup.json,
            "skippedEvents": .object(
                info.skippedEvents.reduce(into: [:]) { $0[$1.key.description] = .int(Int64($1.value)) }),
        ]
        if let failure = writerStatus.failure { result["readOnlyReason"] = .string(failure.message) }
        if let damage = logHealth.known { result["logDamage"] = .object(damage.details) }
        result.merge(extraStatus) { first, _ in first }
        return .object(result)
    }
}

extension EventFilter {
    /// Reads the committed log from near `afterSeq` and collects one page of matching events.
    func run(directory: String, writer: LogWriter, health: LogHealth) throws -> JSONValue {
        let (afterSeq, types, since, until, limit) = (afterSeq, types, since, until, limit)
        let committed = writer.status
        var events: [JSONValue] = []
        var bytes = 0
        var lastScanned = afterSeq
        var more = false
        _ = try health.readCommitted(
            directory: directory, start: writer.index.start(after: afterSeq), limit: committed.end
        ) {
            envelope, _ in
            guard envelope.seq > afterSeq else { return true }
            let matches =
                (types?.contains(envelope.type) ?? true) && (since.map { envelope.ts >= $0 } ?? true)
                && (until.map { envelope.ts < $0 } ?? true)
            if matches {
                let json = try envelope.json()
                let size = json.jsonBytes.count
                if events.count >= limit || (!events.isEmpty && bytes + size > Paging.budget) {
                    more = true
                    return false
                }
                events.append(json)
                bytes += size
            }
            lastScanned = envelope.seq
            return true
        }
        var result: [String: JSONValue] = ["events": .array(events), "lastSeq": .int(committed.lastSeq)]
        if more { result["nextCursor"] = .string("s\(lastScanned)") }
        return .object(result)
    }
}
