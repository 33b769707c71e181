import WeatherDomain

extension Engine {
    /// One page of the alerts raised, most recent first, in the reader's units (`RaisedAlert.json(in:)`).
    package func listAlerts(_ page: PageRequest) async -> Completion<JSONValue> {
        let barrier = await alerts.barrier()
        return Completion {
            await barrier?.settled()
            let units = await self.readerUnits()
            return await self.alerts.read { state in
                Paging.page(
                    state.recent.map { $0.json(in: units) }, name: "alerts", limit: page.limit, offset: page.offset)
            }
        }
    }

    /// Every alert raised that is kept, most recent first, in the reader's units, once every change before
    /// it is durable.
    package func allAlerts() async -> [JSONValue] {
        await alerts.barrier()?.settled()
        let units = await readerUnits()
        return await alerts.read { $0.recent.map { $0.json(in: units) } }
    }

    /// Changes the alert settings; answers the settings.
    package func configureAlerts(_ change: AlertConfiguration, origin: Origin) async throws -> Completion<JSONValue> {
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
    package var lastSeq: Int64 { writer.status.lastSeq }
}
