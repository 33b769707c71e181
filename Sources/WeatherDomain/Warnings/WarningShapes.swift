#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The shapes of a warning's areas, as its sender drew them: CAP `polygon`s and `circle`s.
///
/// A point is covered by a warning when it lies in one of its polygons or circles (`contains`). Polygons may
/// cross the ±180° meridian: a CAP polygon is a ring of `lat,lon` pairs whose longitudes jump by more than
/// 180° between neighbours where it crosses, and it is read as the ring that crosses there, not as one that
/// goes the long way round the world.
package struct WarningShapes: Sendable, Equatable {
    /// A point in degrees.
    package struct Point: Sendable, Equatable {
        package var lat: Double
        package var lon: Double

        package init(lat: Double, lon: Double) {
            self.lat = lat
            self.lon = lon
        }
    }

    /// A CAP `circle`: a centre and a radius in kilometres.
    package struct Circle: Sendable, Equatable {
        package var center: Point
        package var radiusKm: Double

        package init(center: Point, radiusKm: Double) {
            self.center = center
            self.radiusKm = radiusKm
        }
    }

    /// Closed rings (CAP repeats the first point last; a ring read without it is closed all the same).
    package var polygons: [[Point]]
    package var circles: [Circle]

    package init(polygons: [[Point]] = [], circles: [Circle] = []) {
        self.polygons = polygons
        self.circles = circles
    }

    /// Whether there is any shape: a warning given only by area names or codes has none.
    package var isEmpty: Bool { polygons.isEmpty && circles.isEmpty }

    /// How a shape covers a point, when one does.
    package enum Cover: String, Sendable, Equatable {
        case polygon, circle
    }

    /// Which kind of shape covers `(lat, lon)`, or nil when none does (or there are no shapes).
    package func cover(lat: Double, lon: Double) -> Cover? {
        if polygons.contains(where: { Self.ring($0, contains: Point(lat: lat, lon: lon)) }) { return .polygon }
        if circles.contains(where: {
            GreatCircle.distanceKm(from: ($0.center.lat, $0.center.lon), to: (lat, lon)) <= $0.radiusKm
        }) {
            return .circle
        }
        return nil
    }

    /// Whether `(lat, lon)` lies in one of the polygons or circles.
    package func contains(lat: Double, lon: Double) -> Bool { cover(lat: lat, lon: lon) != nil }

    /// Even-odd ray casting on a ring whose longitudes are made continuous from its first point (a step of
    /// more than 180° is taken the short way, across ±180°); the point is tried at its longitude and one turn
    /// east and west of it, so a ring unwrapped past 180° still finds it. A point on an edge counts as inside.
    static func ring(_ points: [Point], contains point: Point) -> Bool {
        guard points.count >= 3 else { return false }
        var unwrapped: [Point] = []
        unwrapped.reserveCapacity(points.count)
        for vertex in points {
            guard let last = unwrapped.last else {
                unwrapped.append(vertex)
                continue
            }
            var lon = vertex.lon
            while lon - last.lon > 180 { lon -= 360 }
            while lon - last.lon < -180 { lon += 360 }
            unwrapped.append(Point(lat: vertex.lat, lon: lon))
        }
        return [point.lon, point.lon + 360, point.lon - 360].contains { evenOdd(unwrapped, lat: point.lat, lon: $0) }
    }

    private static func evenOdd(_ ring: [Point], lat: Double, lon: Double) -> Bool {
        var inside = false
        var previous = ring[ring.count - 1]
        for vertex in ring {
            if onSegment(previous, vertex, lat: lat, lon: lon) { return true }
            if (vertex.lat > lat) != (previous.lat > lat) {
                let crossing =
                    vertex.lon + (lat - vertex.lat) / (previous.lat - vertex.lat) * (previous.lon - vertex.lon)
                if lon < crossing { inside.toggle() }
            }
            previous = vertex
        }
        return inside
    }

    private static func onSegment(_ a: Point, _ b: Point, lat: Double, lon: Double) -> Bool {
        let cross = (b.lon - a.lon) * (lat - a.lat) - (b.lat - a.lat) * (lon - a.lon)
        guard abs(cross) < 1e-12 else { return false }
        return min(a.lon, b.lon) <= lon && lon <= max(a.lon, b.lon) && min(a.lat, b.lat) <= lat
            && lat <= max(a.lat, b.lat)
    }

    /// `[[[lat, lon], …], …]` and `[{lat, lon, radiusKm}, …]` members, for an object being written.
    package func write(into object: inout [String: JSONValue]) {
        if !polygons.isEmpty {
            object["polygons"] = .array(
                polygons.map { ring in .array(ring.map { .array([.double($0.lat), .double($0.lon)]) }) })
        }
        if !circles.isEmpty {
            object["circles"] = .array(
                circles.map {
                    .object([
                        "lat": .double($0.center.lat), "lon": .double($0.center.lon), "radiusKm": .double($0.radiusKm),
                    ])
                })
        }
    }

    /// Reads the `polygons` and `circles` members `write` writes (both optional).
    package init(_ reader: FieldReader) throws(FieldError) {
        var polygons: [[Point]] = []
        if reader.has("polygons") {
            polygons = try reader.elements("polygons") { ring, ringPath throws(FieldError) in
                guard case .array(let pairs) = ring else {
                    throw FieldError(path: ringPath, problem: "must be an array of [lat, lon] pairs")
                }
                var points: [Point] = []
                for (index, pair) in pairs.enumerated() {
                    guard case .array(let numbers) = pair, numbers.count == 2, let lat = numbers[0].doubleValue,
                        let lon = numbers[1].doubleValue, (-90...90).contains(lat), (-180...180).contains(lon)
                    else {
                        throw FieldError(path: "\(ringPath)[\(index)]", problem: "must be [lat, lon] in degrees")
                    }
                    points.append(Point(lat: lat, lon: lon))
                }
                return points
            }
        }
        var circles: [Circle] = []
        if reader.has("circles") {
            circles = try reader.elements("circles") { item, itemPath throws(FieldError) in
                let circle = try FieldReader(item, path: itemPath)
                guard let lat = try circle.double("lat", in: -90...90),
                    let lon = try circle.double("lon", in: -180...180),
                    let radius = try circle.double("radiusKm", in: 0...40_000)
                else { throw FieldError(path: itemPath, problem: "must have lat, lon and radiusKm") }
                return Circle(center: Point(lat: lat, lon: lon), radiusKm: radius)
            }
        }
        self.init(polygons: polygons, circles: circles)
    }
}
