import WeatherDomain

extension Engine {
    /// The settings: the system and each quantity's override.
    package func getSettings() async -> Completion<SettingsChange> { await settings.query { $0.settings } }

    /// Changes the system and the per-quantity overrides; answers the settings as `getSettings` does.
    package func changeSettings(_ edit: SettingsEdit, origin: Origin) async throws -> Completion<SettingsChange> {
        try await settings.change(origin) { state in
            SettingsDecisions.set(state, edit)
        } answer: { event in
            if case .settingsChanged(let change) = event { change } else { nil }
        } unchanged: {
            $0.settings
        }
    }

    /// The units of an answer: the request's system whole when it names one, else the settings' system
    /// with the user's per-quantity overrides.
    func units(_ requested: Units?) async throws -> UnitChoice {
        if let requested { return requested.choice }
        return await readerUnits()
    }

    /// The units of whoever reads what weatherd says unasked or with no units of its own (alerts, the
    /// map): the settings' system with its overrides.
    func readerUnits() async -> UnitChoice { await settings.read { $0.unitChoice } }
}
