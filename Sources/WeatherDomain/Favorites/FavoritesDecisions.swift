/// Pure decisions about favorites: given the state, a command and `now`, the events to append.
package enum FavoritesDecisions {
    /// Coordinates closer than this (in degrees, about 100 m) are the same place.
    static let samePlaceTolerance = 0.001

    /// The default of `--max-favorites`.
    package static let defaultMaxCount = 100_000

    /// Adds a place unless a favorite already stands at the same coordinates (less than
    /// `samePlaceTolerance` apart in latitude and in longitude, across the antimeridian too) or there are
    /// `maxCount` favorites already.
    package static func add(
        _ state: FavoritesState, name: String, country: String?, lat: Double, lon: Double, now: Timestamp,
        maxCount: Int = defaultMaxCount
    ) throws(DomainError) -> [DomainEvent] {
        if let existing = state.favorite(near: lat, lon, tolerance: samePlaceTolerance) {
            throw .alreadyExists("A favorite at these coordinates exists already: \(existing.id) (\(existing.name)).")
        }
        guard state.count < maxCount else { throw .tooManyFavorites(maxCount) }
        let favorite = Favorite(
            id: "fav-\(state.nextNumber)", name: name, country: country, lat: lat, lon: lon, addedAt: now,
            notify: true)
        return [.favoriteAdded(favorite)]
    }

    /// Removes a favorite by id.
    package static func remove(_ state: FavoritesState, id: String) throws(DomainError) -> [DomainEvent] {
        guard let favorite = state.favorite(id: id) else { throw .favoriteNotFound(id) }
        return [.favoriteRemoved(favorite)]
    }

    /// Renames a favorite or switches its alerts; no event when nothing changes.
    package static func update(
        _ state: FavoritesState, id: String, name: String?, notify: Bool?
    ) throws(DomainError) -> [DomainEvent] {
        guard var favorite = state.favorite(id: id) else { throw .favoriteNotFound(id) }
        var changed: [String] = []
        if let name, name != favorite.name {
            favorite.name = name
            changed.append("name")
        }
        if let notify, notify != favorite.notify {
            favorite.notify = notify
            changed.append("notify")
        }
        return changed.isEmpty ? [] : [.favoriteUpdated(FavoriteUpdate(favorite: favorite, changed: changed))]
    }
}

/// A favorite after an update, and which of its fields changed.
package struct FavoriteUpdate: Sendable, Equatable {
    /// The whole favorite after the update, so the event alone answers a repeated command.
    package var favorite: Favorite
    /// The names of the fields that changed (`name`, `notify`).
    package var changed: [String]

    package init(favorite: Favorite, changed: [String]) {
        self.favorite = favorite
        self.changed = changed
    }

    package var json: JSONValue {
        .object(["favorite": favorite.json, "changed": .array(changed.map { .string($0) })])
    }

    package init(json: JSONValue) throws(FieldError) {
        let reader = try FieldReader(json, path: "data")
        self.init(
            favorite: try Favorite(json: reader.members["favorite"] ?? .null, path: "data.favorite"),
            changed: try reader.optionalStrings("changed") ?? [])
    }
}
