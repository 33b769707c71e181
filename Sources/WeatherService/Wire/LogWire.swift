import EventLog
import WeatherDomain
import WeatherEngine

extension EventPage {
    /// `events/query`'s answer: `{events, lastSeq, nextCursor?}`; the cursor `s<seq>` continues after that seq.
    var json: JSONValue {
        var result: [String: JSONValue] = ["events": .array(events), "lastSeq": .int(lastSeq)]
        if let continueAfter { result["nextCursor"] = .string("s\(continueAfter)") }
        return .object(result)
    }
}

extension StateVerification {
    /// `state/verify`'s answer: `{ok, lastSeq, slices: {name: {live, replayed, equal}}, live, replayed}`.
    var json: JSONValue {
        var slices: [String: JSONValue] = [:]
        for (name, slice) in self.slices {
            slices[name] = .object([
                "live": .string(slice.live), "replayed": .string(slice.replayed), "equal": .bool(slice.equal),
            ])
        }
        return .object([
            "ok": .bool(ok), "lastSeq": .int(lastSeq), "slices": .object(slices), "live": .string(live),
            "replayed": .string(replayed),
        ])
    }
}

extension ServiceStatus {
    /// `service/status`'s answer.
    var json: JSONValue {
        let counts = upstreamCalls
        var result: [String: JSONValue] = [
            "version": .string(info.version), "dataDir": .string(dataDir), "lastSeq": .int(lastSeq),
            "logBytes": .int(logBytes), "segments": .int(Int64(segments)), "uptimeSeconds": .int(uptimeSeconds),
            "provider": .string(info.provider), "cacheTtlSeconds": .int(cacheTtlSeconds),
            "forecastTtlSeconds": .int(forecastTtlSeconds),
            "upstreamCalls": .object([
                "calls": .int(Int64(counts.calls)), "failures": .int(Int64(counts.failures)),
                "cacheHits": .int(Int64(counts.cacheHits)), "sharedCalls": .int(Int64(counts.sharedCalls)),
                "notFoundHits": .int(Int64(counts.notFoundHits)), "staleAnswers": .int(Int64(counts.staleAnswers)),
            ]),
            "readOnly": .bool(readOnlyReason != nil), "fsync": .string(info.fsync.rawValue),
            "batches": .int(Int64(batches)), "syncs": .int(Int64(syncs)), "pid": .int(Int64(pid)),
            "startup": .object([
                "snapshotSeq": info.startup.snapshotSeq.map { .int($0) } ?? .null,
                "replayedEvents": .int(info.startup.replayedEvents),
            ]),
            "skippedEvents": .object(
                info.skippedEvents.reduce(into: [:]) { $0[$1.key.description] = .int(Int64($1.value)) }),
        ]
        result["baseURLs"] = .object(upstream.baseURLs.mapValues { .string($0) })
        result["upstreamTimeoutSeconds"] = .int(upstream.upstreamTimeoutSeconds)
        result["owmApi"] = upstream.owmAPI.map { .string($0) } ?? .null
        result["owmKeyDigest"] = upstream.owmKeyDigest.map { .string($0) } ?? .null
        result["options"] = .object(options.mapValues { .string($0) })
        if let readOnlyReason { result["readOnlyReason"] = .string(readOnlyReason) }
        if let logDamage { result["logDamage"] = .object(logDamage.details) }
        if let front {
            result["socket"] = front.socket.map { .string($0) } ?? .null
            result["connections"] = .int(Int64(front.connections))
            result["maxConnections"] = .int(Int64(front.maxConnections))
        }
        if let httpURL {
            result["http"] = .object([
                "url": .string(httpURL), "routes": .array(HTTPFace.routes.map { .string($0.route) }),
            ])
        }
        if let shipping {
            result["shipping"] = .object([
                "url": .string(shipping.url), "stream": .string(shipping.stream), "subject": .string(shipping.subject),
                "logId": .string(shipping.logID), "shippedSeq": .int(shipping.shippedSeq),
                "lagEvents": .int(shipping.lag(lastSeq: lastSeq)), "published": .int(shipping.published),
                "connected": .bool(shipping.connected), "problem": shipping.problem.map { .string($0) } ?? .null,
            ])
        }
        return .object(result)
    }
}
