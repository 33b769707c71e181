import WeatherDomain

/// Alerts raised, most recent first, and the units of whoever reads them (the settings').
package struct RaisedAlerts: Sendable {
    package var alerts: [RaisedAlert]
    package var units: UnitChoice
}

extension Engine {
    /// The alerts raised that are kept, most recent first, for a reader of the settings' units.
    package func listAlerts() async -> Completion<RaisedAlerts> {
        let barrier = await alerts.barrier()
        return Completion {
            await barrier?.settled()
            return await self.raisedAlerts()
        }
    }

    /// The alerts raised that are kept, most recent first, once every change before it is durable.
    package func allAlerts() async -> RaisedAlerts {
        await alerts.barrier()?.settled()
        return await raisedAlerts()
    }

    private func raisedAlerts() async -> RaisedAlerts {
        let units = await readerUnits()
        return RaisedAlerts(alerts: await alerts.read { $0.recent }, units: units)
    }

    /// Changes the alert settings; answers the settings.
    package func configureAlerts(_ change: AlertConfiguration, origin: Origin) async throws -> Completion<AlertSettings>
    {
        try await alerts.change(origin) { state in
            AlertDecisions.configure(
                state, dailySummaryEnabled: change.dailySummaryEnabled, dailySummaryMinutes: change.dailySummaryMinutes,
                tempDropC: change.tempDropC, severe: change.severe, official: change.official,
                airQualityEnabled: change.airQualityEnabled, airQualityLevel: change.airQualityLevel,
                nowcast: change.nowcast, forecastChange: change.forecastChange)
        } answer: { event in
            if case .alertsConfigured(let settings) = event { settings } else { nil }
        } unchanged: {
            $0.settings
        }
    }

    /// The seq of the last committed event.
    package var lastSeq: Int64 { writer.status.lastSeq }
}
