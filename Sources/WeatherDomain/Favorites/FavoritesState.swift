/// The user's favorites, most recently added first.
public struct FavoritesState: StateSlice {
    /// Favorites, oldest first, so that adding one appends instead of moving every other.
    var oldestFirst: [Favorite] = []
    /// The ids in `oldestFirst`, so that looking for one that is absent costs no scan.
    var ids: Set<String> = []
    /// The number used for the next id; ids are never reused, even after a removal.
    public internal(set) var nextNumber: Int64 = 1

    public init() {}

    /// Favorites, most recently added first.
    public var items: [Favorite] { oldestFirst.reversed() }

    public func favorite(id: String) -> Favorite? {
        guard ids.contains(id) else { return nil }
        return oldestFirst.last { $0.id == id }
    }

    public mutating func apply(_ event: DomainEvent) {
        switch event {
        case .favoriteAdded(let favorite):
            remove(id: favorite.id)
            oldestFirst.append(favorite)
            ids.insert(favorite.id)
            if let number = Self.number(of: favorite.id) { nextNumber = max(nextNumber, number + 1) }
        case .favoriteRemoved(let favorite):
            remove(id: favorite.id)
        case .favoriteUpdated(let update):
            if ids.contains(update.favorite.id),
                let index = oldestFirst.lastIndex(where: { $0.id == update.favorite.id })
            {
                oldestFirst[index] = update.favorite
            }
        default:
            break
        }
    }

    private mutating func remove(id: String) {
        guard ids.remove(id) != nil, let index = oldestFirst.firstIndex(where: { $0.id == id }) else { return }
        oldestFirst.remove(at: index)
    }

    static func number(of id: String) -> Int64? {
        guard id.hasPrefix("fav-") else { return nil }
        return Int64(id.dropFirst(4))
    }

    public var json: JSONValue {
        .object(["items": .array(items.map(\.json)), "nextNumber": .int(nextNumber)])
    }
}
