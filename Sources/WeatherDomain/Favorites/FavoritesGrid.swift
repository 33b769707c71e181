/// Favorite ids by cell of a 0.01° grid, so the places near a point are found among a few cells instead
/// of every favorite.
struct FavoritesGrid: Sendable {
    /// Cells per degree.
    static let cellsPerDegree = 100.0

    struct Cell: Hashable, Sendable {
        var lat: Int32
        var lon: Int32
    }

    private var cells: [Cell: [String]] = [:]

    static func cell(_ lat: Double, _ lon: Double) -> Cell {
        Cell(lat: index(lat), lon: index(lon))
    }

    private static func index(_ degrees: Double) -> Int32 {
        Int32((degrees * cellsPerDegree).rounded(.down))
    }

    mutating func insert(_ favorite: Favorite) {
        cells[Self.cell(favorite.lat, favorite.lon), default: []].append(favorite.id)
    }

    mutating func remove(_ favorite: Favorite) {
        let cell = Self.cell(favorite.lat, favorite.lon)
        guard var ids = cells[cell], let index = ids.firstIndex(of: favorite.id) else { return }
        ids.remove(at: index)
        cells[cell] = ids.isEmpty ? nil : ids
    }

    /// Whether a favorite is less than `tolerance` degrees from the point in latitude and in longitude,
    /// the longitudes compared around the globe (179.9995 and -179.9995 are 0.001° apart).
    static func isNear(_ favorite: Favorite, _ lat: Double, _ lon: Double, tolerance: Double) -> Bool {
        let lonDistance = abs(favorite.lon - lon)
        return abs(favorite.lat - lat) < tolerance && min(lonDistance, 360 - lonDistance) < tolerance
    }

    /// Calls `body` with the id of every favorite in the cells that a point `tolerance` degrees away may
    /// fall in, wrapping around the antimeridian. Callers check each candidate with `isNear`.
    func forEachID(near lat: Double, _ lon: Double, within tolerance: Double, _ body: (String) -> Void) {
        // A margin over the tolerance, so that rounding in `degrees * cellsPerDegree` never misses a cell.
        let reach = tolerance * 1.5
        let lats = Self.index(lat - reach)...Self.index(lat + reach)
        var lonRanges = [Self.index(max(lon - reach, -180))...Self.index(min(lon + reach, 180))]
        if lon - reach < -180 { lonRanges.append(Self.index(lon - reach + 360)...Self.index(180)) }
        if lon + reach > 180 { lonRanges.append(Self.index(-180)...Self.index(lon + reach - 360)) }
        for latIndex in lats {
            for lonRange in lonRanges {
                for lonIndex in lonRange {
                    cells[Cell(lat: latIndex, lon: lonIndex)]?.forEach(body)
                }
            }
        }
    }
}
