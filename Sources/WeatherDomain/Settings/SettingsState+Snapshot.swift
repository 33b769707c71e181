extension SettingsState {
    /// Rebuilds the slice from its canonical `json`, exactly.
    ///
    /// - Throws: `FieldError` naming the member that does not match the canonical form.
    package init(json: JSONValue, path: String = "settings") throws(FieldError) {
        let reader = try FieldReader(json, path: path)
        self.init()
        guard let units = try reader.choice("units", as: Units.self) else {
            throw FieldError(path: "\(path).units", problem: "is required")
        }
        self.units = units
        overrides = try UnitOverrides(reader)
    }
}
