extension FavoritesState {
    /// Rebuilds the slice from its canonical `json`, exactly: `FavoritesState(json: state.json) == state`.
    ///
    /// - Throws: `FieldError` naming the member that does not match the canonical form.
    public init(json: JSONValue, path: String = "favorites") throws(FieldError) {
        let reader = try FieldReader(json, path: path)
        self.init()
        let items = try reader.elements("items") { item, itemPath throws(FieldError) in
            try Favorite(json: item, path: itemPath)
        }
        oldestFirst = items.reversed()
        ids = Set(items.map(\.id))
        guard ids.count == items.count else { throw FieldError(path: "\(path).items", problem: "repeats an id") }
        nextNumber = try reader.int("nextNumber")
    }
}
