/// A point a client names by its latitude and longitude, in decimal degrees: checked once, here, whichever
/// face it came through (JSON-RPC params, MCP tool arguments, an MCP resource URI, the command line).
///
/// The engine's API takes a point only as a `Coordinates`, so a point that is not on the globe (latitude 91,
/// longitude 181, NaN) is refused before anything is asked about it.
package struct Coordinates: Sendable, Equatable {
    /// The latitudes on the globe.
    package static let latitudes: ClosedRange<Double> = -90...90
    /// The longitudes on the globe.
    package static let longitudes: ClosedRange<Double> = -180...180

    package let lat: Double
    package let lon: Double

    /// A point whose members `lat` and `lon` are at `path` (`params`, `arguments`).
    ///
    /// - Throws: `FieldError` on `<path>.lat` or `<path>.lon` for a value off the globe (NaN included).
    package init(lat: Double, lon: Double, path: String) throws(FieldError) {
        try Self.check(lat, in: Self.latitudes, "\(path).lat")
        try Self.check(lon, in: Self.longitudes, "\(path).lon")
        self.lat = lat
        self.lon = lon
    }

    /// The point `LAT,LON` names, as a URI or a command line writes it (spaces allowed around each number);
    /// nil for text of another form, which names a place some other way.
    ///
    /// - Throws: `FieldError` on `path` for two numbers that are not a point on the globe.
    package init?(text: String, path: String) throws(FieldError) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let lat = Self.number(parts[0]), let lon = Self.number(parts[1]) else { return nil }
        do {
            try self.init(lat: lat, lon: lon, path: path)
        } catch {
            let member = error.path.hasSuffix(".lat") ? "latitude" : "longitude"
            throw FieldError(path: path, problem: "(\(text)): the \(member) \(error.problem)")
        }
    }

    private static func check(_ value: Double, in range: ClosedRange<Double>, _ path: String) throws(FieldError) {
        guard range.contains(value) else {
            throw FieldError(path: path, problem: "must be between \(range.lowerBound) and \(range.upperBound)")
        }
    }

    private static func number(_ text: Substring) -> Double? { Double(String(text).trimmingWhitespace) }
}

extension FieldReader {
    /// The point named by the members `lat` and `lon`; nil when neither is given.
    ///
    /// - Throws: `FieldError` when one is given without the other, either is not a number, or the point is
    ///   not on the globe (`Coordinates`).
    package func coordinates() throws(FieldError) -> Coordinates? {
        let lat = try optionalDouble("lat")
        let lon = try optionalDouble("lon")
        switch (lat, lon) {
        case (nil, nil): return nil
        case (let lat?, let lon?): return try Coordinates(lat: lat, lon: lon, path: path)
        case (nil, _): throw FieldError(path: "\(path).lat", problem: "is required (with lon)")
        case (_, nil): throw FieldError(path: "\(path).lon", problem: "is required (with lat)")
        }
    }
}
