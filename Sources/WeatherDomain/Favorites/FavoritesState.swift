/// The user's favorites, most recently added first.
public struct FavoritesState: StateSlice {
    /// Favorites, most recently added first.
    public internal(set) var items: [Favorite] = []
    /// The number used for the next id; ids are never reused, even after a removal.
    public internal(set) var nextNumber: Int64 = 1

    public init() {}

    public func favorite(id: String) -> Favorite? { items.first { $0.id == id } }

    public mutating func apply(_ event: DomainEvent) {
        switch event {
        case .favoriteAdded(let favorite):
            items.removeAll { $0.id == favorite.id }
            items.insert(favorite, at: 0)
            if let number = Self.number(of: favorite.id) { nextNumber = max(nextNumber, number + 1) }
        case .favoriteRemoved(let favorite):
            items.removeAll { $0.id == favorite.id }
        case .favoriteUpdated(let update):
            if let index = items.firstIndex(where: { $0.id == update.favorite.id }) { items[index] = update.favorite }
        default:
            break
        }
    }

    static func number(of id: String) -> Int64? {
        guard id.hasPrefix("fav-") else { return nil }
        return Int64(id.dropFirst(4))
    }

    public var json: JSONValue {
        .object(["items": .array(items.map(\.json)), "nextNumber": .int(nextNumber)])
    }
}
