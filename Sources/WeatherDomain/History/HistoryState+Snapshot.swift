extension HistoryState {
    /// Rebuilds the slice from its canonical `json`, exactly.
    ///
    /// - Throws: `FieldError` naming the member that does not match the canonical form.
    package init(json: JSONValue, path: String = "history") throws(FieldError) {
        let reader = try FieldReader(json, path: path)
        self.init()
        entries = try reader.elements("entries") { item, _ throws(FieldError) in try HistoryEntry(json: item) }
    }
}
