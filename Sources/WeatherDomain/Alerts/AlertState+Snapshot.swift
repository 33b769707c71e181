extension AlertState {
    /// Rebuilds the slice from its canonical `json`, exactly: the de-duplication keys come back in the
    /// order they were raised (`raisedOrder`), which decides which are forgotten first.
    ///
    /// - Throws: `FieldError` naming the member that does not match the canonical form.
    package init(json: JSONValue, path: String = "alerts") throws(FieldError) {
        let reader = try FieldReader(json, path: path)
        self.init()
        settings = try AlertSettings(json: reader.members["settings"] ?? .null)
        recent = try reader.elements("recent") { item, _ throws(FieldError) in try RaisedAlert(json: item) }
        raisedOrder = try reader.elements("raisedOrder") { item, itemPath throws(FieldError) in
            guard case .string(let key) = item else { throw FieldError(path: itemPath, problem: "must be a string") }
            return key
        }
        raised = Set(raisedOrder)
        guard raised.count == raisedOrder.count else {
            throw FieldError(path: "\(path).raisedOrder", problem: "must not repeat a key")
        }
        nextNumber = try reader.int("nextNumber")
        if reader.members["forecastTold"] != nil {
            forecastTold = try reader.values("forecastTold") { item, itemPath throws(FieldError) in
                let told = try FieldReader(item, path: itemPath)
                return ForecastRevision(
                    fetchedAt: try told.timestamp("fetchedAt"),
                    day: try DailySummary(json: told.members["day"] ?? .null, path: "\(itemPath).day"))
            }
        }
    }
}
