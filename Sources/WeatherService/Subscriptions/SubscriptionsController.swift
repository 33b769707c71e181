import WeatherDomain
import WeatherEngine

/// `events/subscribe`, `events/unsubscribe`, `alerts/subscribe`, `alerts/unsubscribe` and `nowcast/watch`: the
/// feeds of one connection, which carry what every connection caused, and the places it watches. While a feed
/// runs, the places with alerts on are watched: their nowcasts are refreshed at their sources' cadence.
struct SubscriptionsController: Controller {
    let log: any LogFacet
    let alerts: any AlertsFacet
    let pushes: Pushes
    /// The connection's watches, which end with it.
    let watches: NowcastWatches

    var methods: [String: MethodHandler] {
        [
            "events/subscribe": MethodHandler(params: ["afterSeq", "types"]) { [log, pushes, watches] call in
                let afterSeq = try call.params.int("afterSeq", in: 0...(1 << 53)) ?? log.lastSeq
                let types = try call.params.optionalStrings("types").map(Set.init)
                let id = pushes.newSubscriptionID()
                return Completion {
                    pushes.afterAnswer(to: call.id) {
                        pushes.startSubscription(id) {
                            await alerts.followingAlerts(by: watches) {
                                await Self.feed(log, pushes, id, afterSeq, types)
                            }
                        }
                    }
                    return .object(["subscriptionId": .string(id), "afterSeq": .int(afterSeq)])
                }
            },
            "events/unsubscribe": MethodHandler(params: ["subscriptionId"]) { [pushes] call in
                let id = try call.params.optionalString("subscriptionId")
                return Completion {
                    .object(["unsubscribed": .array(pushes.stopSubscriptions(id).map { .string($0) })])
                }
            },
            "alerts/subscribe": MethodHandler(params: ["units"]) { [alerts, pushes, watches] call in
                // A system named here is the reader's whole, as for the weather methods; else the settings'.
                let units = try call.params.choice("units", as: Units.self)?.choice
                return Completion {
                    pushes.afterAnswer(to: call.id) {
                        pushes.setAlerts(true) {
                            await alerts.followingAlerts(by: watches) {
                                await alerts.followAlerts { pushes.notify("alerts/raised", $0.json(in: units ?? $1)) }
                            }
                        }
                    }
                    return .object(["subscribed": true])
                }
            },
            "nowcast/watch": MethodHandler(params: PlaceParams.names) { [alerts, pushes, watches] call in
                let place = try PlaceParams(call.params).place
                let id = pushes.newSubscriptionID()
                return Completion {
                    pushes.startSubscription(id) {
                        await alerts.watchNowcast(place, by: watches, cause: call.cause)
                    }
                    return .object(["subscriptionId": .string(id)])
                }
            },
            "alerts/unsubscribe": MethodHandler { [pushes] _ in
                pushes.setAlerts(false) {}
                return Completion { .object(["subscribed": false]) }
            },
        ]
    }

    /// `events/event` notifications from the engine's feed, then `events/caughtUp`, live events, and at
    /// the end `events/lagged` or `events/error`.
    private static func feed(
        _ log: any LogFacet, _ pushes: Pushes, _ id: String, _ afterSeq: Int64, _ types: Set<String>?
    ) async {
        let end = await log.feedEvents(afterSeq: afterSeq, types: types) {
            await pushes.room()
        } caughtUp: { lastSeq in
            pushes.notify("events/caughtUp", .object(["subscriptionId": .string(id), "lastSeq": .int(lastSeq)]))
        } send: { event in
            var params = event
            params["subscriptionId"] = .string(id)
            pushes.notify("events/event", .object(params))
        }
        switch end {
        case .cancelled:
            break
        case .lagged(let lastSeq):
            pushes.notify("events/lagged", .object(["subscriptionId": .string(id), "lastSeq": .int(lastSeq)]))
        case .failed(let error, let lastSeq):
            pushes.notify(
                "events/error",
                .object(["subscriptionId": .string(id), "lastSeq": .int(lastSeq), "error": RPCError(error).json]))
        }
    }
}
