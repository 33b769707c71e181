import WeatherDomain

extension Engine {
    /// One page of the alerts raised, most recent first.
    public func listAlerts(_ page: PageRequest) async -> Completion {
        await alerts.query { state in
            Paging.page(state.recent.map(\.json), name: "alerts", limit: page.limit, offset: page.offset)
        }
    }

    /// Every alert raised that is kept, most recent first, once every change before it is durable.
    public func allAlerts() async -> [JSONValue] {
        await alerts.barrier()?.settled()
        return await alerts.read { $0.recent.map(\.json) }
    }

    /// Changes the alert settings; answers the settings.
    public func configureAlerts(_ change: AlertConfiguration, origin: Origin) async throws -> Completion {
        try await alerts.change(origin) { state in
            AlertDecisions.configure(
                state, dailySummaryEnabled: change.dailySummaryEnabled, dailySummaryMinutes: change.dailySummaryMinutes,
                tempDropC: change.tempDropC, severe: change.severe, official: change.official,
                airQualityEnabled: change.airQualityEnabled, airQualityLevel: change.airQualityLevel)
        } unchanged: {
            $0.settings.json
        }
    }

    /// The seq of the last committed event.
    public var lastSeq: Int64 { writer.status.lastSeq }
}
