/// The user's favorites, most recently added first.
public struct FavoritesState: StateSlice {
    /// Favorites by id, each with the rank of its addition (a higher rank is more recent), so adding,
    /// removing and renaming one costs the same however many there are.
    var byID: [String: Ranked] = [:]
    /// The rank of the latest addition.
    var lastRank: Int64 = 0
    /// The number used for the next id; ids are never reused, even after a removal.
    public internal(set) var nextNumber: Int64 = 1

    /// A favorite and the rank of its addition.
    struct Ranked: Sendable, Equatable {
        var rank: Int64
        var favorite: Favorite
    }

    public init() {}

    /// Favorites, most recently added first.
    public var items: [Favorite] { byID.values.sorted { $0.rank > $1.rank }.map(\.favorite) }

    public func favorite(id: String) -> Favorite? { byID[id]?.favorite }

    /// The favorite with this id or, failing that, the most recent one with this name (case-insensitive).
    public func favorite(idOrName text: String) -> Favorite? {
        if let favorite = favorite(id: text) { return favorite }
        let name = text.lowercased()
        return items.first { $0.name.lowercased() == name }
    }

    public mutating func apply(_ event: DomainEvent) {
        switch event {
        case .favoriteAdded(let favorite):
            lastRank += 1
            byID[favorite.id] = Ranked(rank: lastRank, favorite: favorite)
            if let number = Self.number(of: favorite.id) { nextNumber = max(nextNumber, number + 1) }
        case .favoriteRemoved(let favorite):
            byID[favorite.id] = nil
        case .favoriteUpdated(let update):
            byID[update.favorite.id]?.favorite = update.favorite
        default:
            break
        }
    }

    /// Two states are equal when they hold the same favorites in the same order, whatever their ranks.
    public static func == (lhs: FavoritesState, rhs: FavoritesState) -> Bool {
        lhs.nextNumber == rhs.nextNumber && lhs.byID.count == rhs.byID.count && lhs.items == rhs.items
    }

    static func number(of id: String) -> Int64? {
        guard id.hasPrefix("fav-") else { return nil }
        return Int64(id.dropFirst(4))
    }

    public var json: JSONValue {
        .object(["items": .array(items.map(\.json)), "nextNumber": .int(nextNumber)])
    }
}
