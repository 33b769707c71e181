import WeatherDomain
import WeatherEngine

/// `settings/get` and `settings/set`.
struct SettingsController: Controller {
    let settings: any SettingsFacet

    var methods: [String: MethodHandler] {
        [
            "settings/get": MethodHandler { [settings] _ in await settings.getSettings().map { $0.answer } },
            "settings/set": MethodHandler(changesState: true, params: Self.names) { [settings] call in
                try await settings.changeSettings(try Self.edit(call.params), origin: call.origin).map { $0.answer }
            },
        ]
    }

    /// The members a settings change takes: `units` and one per quantity.
    static let names: Set<String> = Set(["units"] + Quantity.allCases.map(\.rawValue))

    /// A settings change: `units` (a system) and per-quantity units, each optional; a quantity given as
    /// null returns to its system's unit. At least one member must be given.
    ///
    /// - Throws: `FieldError` naming a member whose value is not one of its allowed values (and listing
    ///   them), or the params when they change nothing.
    static func edit(_ params: FieldReader) throws(FieldError) -> SettingsEdit {
        let edit = SettingsEdit(
            units: try params.choice("units", as: Units.self), overrides: try UnitOverrides(params),
            cleared: Set(Quantity.allCases.filter { params.members[$0.rawValue]?.isNull == true }))
        guard !edit.isEmpty else {
            throw FieldError(
                path: params.path,
                problem: "must give units or a quantity's unit (\(names.sorted().joined(separator: ", ")))")
        }
        return edit
    }
}
