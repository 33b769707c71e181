extension FavoritesState {
    /// Rebuilds the slice from its canonical `json`, exactly: `FavoritesState(json: state.json) == state`.
    ///
    /// - Throws: `FieldError` naming the member that does not match the canonical form.
    package init(json: JSONValue, path: String = "favorites") throws(FieldError) {
        let reader = try FieldReader(json, path: path)
        self.init()
        let items = try reader.elements("items") { item, itemPath throws(FieldError) in
            try Favorite(json: item, path: itemPath)
        }
        for favorite in items.reversed() where !insert(favorite) {
            throw FieldError(path: "\(path).items", problem: "repeats the id \(favorite.id)")
        }
        nextNumber = try reader.int("nextNumber")
    }
}
