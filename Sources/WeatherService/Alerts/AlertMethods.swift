import WeatherDomain

extension ServiceContext {
    /// `alerts/*`.
    func alertMethods(_ actor: AlertActor) -> [String: MethodHandler] {
        [
            "alerts/list": MethodHandler(params: ["limit", "cursor"]) { call in
                let window = try Paging.window(call.params, defaultLimit: 100)
                return await alerts.query { state in
                    Paging.page(state.recent.map(\.json), name: "alerts", limit: window.limit, offset: window.offset)
                }
            },
            "alerts/configure": MethodHandler(changesState: true, params: ["dailySummary", "tempDropC", "severe"]) {
                call in
                let p = call.params
                var enabled: Bool?
                var minutes: Int64?
                if p.has("dailySummary") {
                    let daily = try FieldReader(p.members["dailySummary"], path: "params.dailySummary")
                    try daily.rejectUnknown(["enabled", "time"])
                    enabled = try daily.optionalBool("enabled")
                    if let time = try daily.optionalString("time") {
                        guard let value = AlertSettings.minutes(of: time) else {
                            throw FieldError(
                                path: "params.dailySummary.time", problem: "must be a local time HH:MM, e.g. 08:00")
                        }
                        minutes = value
                    }
                }
                let drop = try p.double("tempDropC", in: 0.1...100)
                let (dailyEnabled, dailyMinutes) = (enabled, minutes)
                let severe = try p.optionalBool("severe")
                return try await alerts.change(call) { state in
                    AlertDecisions.configure(
                        state, dailySummaryEnabled: dailyEnabled, dailySummaryMinutes: dailyMinutes, tempDropC: drop,
                        severe: severe)
                } unchanged: {
                    $0.settings.json
                }
            },
            "alerts/subscribe": MethodHandler { _ in
                await actor.setSubscribed(true)
                return { .object(["subscribed": true]) }
            },
            "alerts/unsubscribe": MethodHandler { _ in
                await actor.setSubscribed(false)
                return { .object(["subscribed": false]) }
            },
        ]
    }
}
