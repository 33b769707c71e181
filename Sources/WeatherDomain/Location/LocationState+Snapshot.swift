extension LocationState {
    /// Rebuilds the slice from its canonical `json`, exactly.
    ///
    /// - Throws: `FieldError` naming the member that does not match the canonical form.
    package init(json: JSONValue, path: String = "location") throws(FieldError) {
        let reader = try FieldReader(json, path: path)
        self.init()
        if reader.has("current") { current = try Location(json: reader.members["current"] ?? .null) }
        if reader.has("refreshedFrom") { refreshedFrom = try Location(json: reader.members["refreshedFrom"] ?? .null) }
    }
}
