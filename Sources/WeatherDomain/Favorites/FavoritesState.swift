/// The user's favorites, most recently added first.
///
/// Indexed so that adding, removing, renaming, reading a page, the proximity check and finding the favorites
/// at a place key cost about the same at 10 and at 100,000 favorites: by id, in addition order (with a count
/// tree to find the n-th most recent), on a grid of cells for the places near a point, and by place key.
package struct FavoritesState: StateSlice {
    /// Favorites by id, each with the rank of its addition (its index in `order`).
    var byID: [String: Ranked] = [:]
    /// Ids in the order they were added; nil where one was removed (compacted when they are the most).
    var order: [String?] = []
    /// Counts of live entries of `order`, to find the n-th most recent one in O(log n).
    var live = FenwickTree()
    /// Ids by grid cell of their coordinates.
    var grid = FavoritesGrid()
    /// Ids by the place key of their coordinates (`Place.key`), the key their weather is cached under.
    var byKey: [String: Set<String>] = [:]
    /// The number used for the next id; ids are never reused, even after a removal.
    package internal(set) var nextNumber: Int64 = 1

    /// A favorite and the rank of its addition.
    struct Ranked: Sendable, Equatable {
        var rank: Int
        var favorite: Favorite
    }

    package init() {}

    /// How many favorites there are.
    package var count: Int { byID.count }

    /// Favorites, most recently added first.
    package var items: [Favorite] { order.reversed().compactMap { $0.flatMap { byID[$0]?.favorite } } }

    /// The favorite at `position` in the most-recent-first list (0 is the most recent).
    package func favorite(at position: Int) -> Favorite? {
        guard position >= 0, position < count, let rank = live.index(ofNth: count - position),
            let id = order[rank]
        else { return nil }
        return byID[id]?.favorite
    }

    package func favorite(id: String) -> Favorite? { byID[id]?.favorite }

    /// The favorite with this id or, failing that, the most recent one with this name (case-insensitive).
    package func favorite(idOrName text: String) -> Favorite? {
        if let favorite = favorite(id: text) { return favorite }
        let name = text.lowercased()
        for id in order.reversed() {
            if let id, let favorite = byID[id]?.favorite, favorite.name.lowercased() == name { return favorite }
        }
        return nil
    }

    /// The most recent favorite less than `tolerance` degrees from the point in latitude and in longitude
    /// (across the antimeridian too), found through the grid.
    package func favorite(near lat: Double, _ lon: Double, tolerance: Double) -> Favorite? {
        var best: Ranked?
        grid.forEachID(near: lat, lon, within: tolerance) { id in
            guard let ranked = byID[id], FavoritesGrid.isNear(ranked.favorite, lat, lon, tolerance: tolerance)
            else { return }
            if best.map({ ranked.rank > $0.rank }) ?? true { best = ranked }
        }
        return best?.favorite
    }

    /// The favorites whose coordinates have this place key (`Place.key`), most recent first.
    package func favorites(atKey key: String) -> [Favorite] {
        (byKey[key] ?? []).compactMap { byID[$0] }.sorted { $0.rank > $1.rank }.map(\.favorite)
    }

    /// How many favorites `favorites(atKey:)` examines: those at the key alone.
    package func candidateCount(atKey key: String) -> Int { byKey[key]?.count ?? 0 }

    /// How many favorites the proximity check around the point examines: those in the grid cells it reads.
    package func candidateCount(near lat: Double, _ lon: Double, tolerance: Double) -> Int {
        var count = 0
        grid.forEachID(near: lat, lon, within: tolerance) { _ in count += 1 }
        return count
    }

    package mutating func apply(_ event: DomainEvent) {
        switch event {
        case .favoriteAdded(let favorite):
            if byID[favorite.id] != nil { remove(id: favorite.id) }
            insert(favorite)
            if let number = Self.number(of: favorite.id) { nextNumber = max(nextNumber, number + 1) }
        case .favoriteRemoved(let favorite):
            remove(id: favorite.id)
        case .favoriteUpdated(let update):
            guard let old = byID[update.favorite.id]?.favorite else { return }
            if old.lat != update.favorite.lat || old.lon != update.favorite.lon {
                grid.remove(old)
                grid.insert(update.favorite)
                unindex(old)
                byKey[Self.key(update.favorite), default: []].insert(update.favorite.id)
            }
            byID[update.favorite.id]?.favorite = update.favorite
        default:
            break
        }
    }

    /// Adds a favorite as the most recent; false (and nothing changed) when its id is there already.
    @discardableResult
    mutating func insert(_ favorite: Favorite) -> Bool {
        guard byID[favorite.id] == nil else { return false }
        byID[favorite.id] = Ranked(rank: order.count, favorite: favorite)
        order.append(favorite.id)
        live.append(1)
        grid.insert(favorite)
        byKey[Self.key(favorite), default: []].insert(favorite.id)
        return true
    }

    private mutating func remove(id: String) {
        guard let ranked = byID.removeValue(forKey: id) else { return }
        order[ranked.rank] = nil
        live.add(-1, at: ranked.rank)
        grid.remove(ranked.favorite)
        unindex(ranked.favorite)
        if order.count > 64, order.count > 2 * byID.count { compact() }
    }

    private static func key(_ favorite: Favorite) -> String { Place.key(lat: favorite.lat, lon: favorite.lon) }

    private mutating func unindex(_ favorite: Favorite) {
        let key = Self.key(favorite)
        byKey[key]?.remove(favorite.id)
        if byKey[key]?.isEmpty == true { byKey[key] = nil }
    }

    /// Drops the removed entries of `order` and renumbers the ranks: O(n), after as many removals.
    private mutating func compact() {
        let ids = order.compactMap { $0 }
        order = ids
        for (rank, id) in ids.enumerated() { byID[id]?.rank = rank }
        live = FenwickTree(ones: order.count)
    }

    /// Two states are equal when they hold the same favorites in the same order, whatever their ranks.
    package static func == (lhs: FavoritesState, rhs: FavoritesState) -> Bool {
        lhs.nextNumber == rhs.nextNumber && lhs.byID.count == rhs.byID.count && lhs.items == rhs.items
    }

    static func number(of id: String) -> Int64? {
        guard id.hasPrefix("fav-") else { return nil }
        return Int64(id.dropFirst(4))
    }

    package var json: JSONValue {
        .object(["items": .array(items.map(\.json)), "nextNumber": .int(nextNumber)])
    }
}
