import EventLog
import WeatherDomain

extension ServiceContext {
    /// `events/subscribe` and `events/unsubscribe`: the audit feed for other processes.
    var subscriptionMethods: [String: MethodHandler] {
        [
            "events/subscribe": MethodHandler(params: ["afterSeq", "types"]) { call in
                let afterSeq = try call.params.int("afterSeq", in: 0...(1 << 53)) ?? writer.status.lastSeq
                let types = try call.params.optionalStrings("types").map(Set.init)
                let id = pushes.newSubscriptionID()
                return {
                    pushes.afterAnswer(to: call.id) {
                        pushes.startSubscription(id) { await streamEvents(id: id, afterSeq: afterSeq, types: types) }
                    }
                    return .object(["subscriptionId": .string(id), "afterSeq": .int(afterSeq)])
                }
            },
            "events/unsubscribe": MethodHandler(params: ["subscriptionId"]) { call in
                let id = try call.params.optionalString("subscriptionId")
                return { .object(["unsubscribed": .array(pushes.stopSubscriptions(id).map { .string($0) })]) }
            },
        ]
    }

    /// Sends every committed event after `afterSeq` from the log, then `events/caughtUp`, then live
    /// events from the bus in seq order; a subscriber the bus cuts off gets `events/lagged` and ends.
    func streamEvents(id: String, afterSeq: Int64, types: Set<String>?) async {
        let (live, busSeq) = bus.subscribe(capacity: 10_000)
        defer { live.cancel() }
        var lastSent = afterSeq
        let send = { (envelope: EventEnvelope) in
            guard types?.contains(envelope.type) ?? true, case .object(var params) = try envelope.json() else { return }
            params["subscriptionId"] = .string(id)
            pushes.notify("events/event", .object(params))
        }
        do {
            if afterSeq < busSeq {
                _ = try logHealth.readCommitted(
                    path: dataDirectory.logPath, start: writer.index.start(after: afterSeq), limit: writer.status.length
                ) { envelope, _ in
                    guard envelope.seq <= busSeq, !Task.isCancelled else { return false }
                    if envelope.seq > afterSeq {
                        try send(envelope)
                        lastSent = envelope.seq
                    }
                    return true
                }
            }
            lastSent = max(lastSent, busSeq)
            pushes.notify("events/caughtUp", .object(["subscriptionId": .string(id), "lastSeq": .int(lastSent)]))
            while let message = await live.next() {
                switch message {
                case .event(let envelope) where envelope.seq > lastSent:
                    // A client that stops reading holds the subscription here; the bus cuts it off once its
                    // buffer is full, so neither the output nor the bus grows without bound.
                    await pushes.room()
                    try send(envelope)
                    lastSent = envelope.seq
                case .event:
                    continue
                case .lagged(let seq):
                    pushes.notify("events/lagged", .object(["subscriptionId": .string(id), "lastSeq": .int(seq)]))
                    return
                }
            }
        } catch let error as RPCError where error.kind == "log_damaged" {
            // Resubscribing would hit the same damage: end the subscription with the error, not `lagged`.
            logger.error("subscription \(id) ended: \(error)")
            pushes.notify(
                "events/error",
                .object(["subscriptionId": .string(id), "lastSeq": .int(lastSent), "error": error.json]))
        } catch {
            logger.error("subscription \(id) ended: \(error)")
            pushes.notify("events/lagged", .object(["subscriptionId": .string(id), "lastSeq": .int(lastSent)]))
        }
    }
}
