import EventLog
import WeatherDomain

/// What `state/verify` found: the digest of each state slice, live and rebuilt from the log.
package struct StateVerification: Sendable, Equatable {
    /// One slice's digests and whether the slices are equal.
    package struct Slice: Sendable, Equatable {
        package var live: String
        package var replayed: String
        package var equal: Bool
    }

    /// The last seq both states hold.
    package var lastSeq: Int64
    package var slices: [String: Slice]
    /// The digests of the whole states.
    package var live: String
    package var replayed: String

    /// Whether every slice is equal.
    package var ok: Bool { slices.values.allSatisfy(\.equal) }
}

extension Engine {
    /// Replays the log into fresh state and compares it, slice by slice, with the live state.
    package func verify() async throws -> StateVerification {
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
        guard case .object(let liveSlices) = live.json, case .object(let replayedSlices) = replayed.json else {
            throw EngineError.inconsistent("a state's JSON is not an object of slices")
        }
        var slices: [String: StateVerification.Slice] = [:]
        for (name, liveSlice) in liveSlices {
            slices[name] = StateVerification.Slice(
                live: Digest.fnv1a(liveSlice.jsonBytes),
                replayed: Digest.fnv1a((replayedSlices[name] ?? .null).jsonBytes),
                equal: liveSlice == replayedSlices[name])
        }
        return StateVerification(
            lastSeq: seq, slices: slices, live: Digest.fnv1a(live.json.jsonBytes),
            replayed: Digest.fnv1a(replayed.json.jsonBytes))
    }
}
