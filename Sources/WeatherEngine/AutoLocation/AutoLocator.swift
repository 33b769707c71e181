import Providers
import WeatherDomain
import WeatherRuntime

/// A position the system's location service gave, exact as it came: `LocationDecisions.found` rounds it before
/// anything records it, and nothing logs it.
package struct ServiceFix: Sendable, Equatable {
    package var lat: Double
    package var lon: Double
    /// The service's accuracy, in metres, when it gives one.
    package var accuracyM: Double?

    package init(lat: Double, lon: Double, accuracyM: Double?) {
        self.lat = lat
        self.lon = lon
        self.accuracyM = accuracyM
    }
}

/// How weatherd finds where the machine is when it was not told (`--auto-location`): it asks the system's
/// location service (GeoClue2, over D-Bus, which the faces' module speaks, hence a seam here), and when that
/// gives nothing it takes the principal city of the system's time zone, from the time zone database's table.
/// Never an IP-lookup service.
package struct AutoLocator: Sendable {
    /// Asks the location service for a fix within `timeout` on `clock`; throws why it gave none (its
    /// description is told, so it must hold no coordinates).
    package var service: @Sendable (_ clock: any RuntimeClock, _ timeout: Duration) async throws -> ServiceFix
    /// The system's time zone (an IANA name), nil when it has none.
    package var timeZone: @Sendable () -> String?
    /// The zones' principal locations and the database's links, read when they are needed.
    package var cities: @Sendable () -> (table: ZoneTable, links: [String: String])
    /// How long the location service may take before the time zone's city is taken.
    package var timeout: Duration

    package init(
        service: @escaping @Sendable (_ clock: any RuntimeClock, _ timeout: Duration) async throws -> ServiceFix,
        timeZone: @escaping @Sendable () -> String?,
        cities: @escaping @Sendable () -> (table: ZoneTable, links: [String: String]) = ZoneTable.systemCities,
        timeout: Duration = .seconds(10)
    ) {
        self.service = service
        self.timeZone = timeZone
        self.cities = cities
        self.timeout = timeout
    }

    /// No location service and no time zone: nothing is ever found (a test's, or a system's without either).
    package static let unavailable = AutoLocator(
        service: { _, _ in throw AutoLocationFailure("no location service is configured") }, timeZone: { nil },
        cities: { (ZoneTable(entries: []), [:]) })

    /// Where the machine is: the location service's fix, else the time zone's city.
    ///
    /// - Returns: what was found and, when it is the time zone's city, why the service gave nothing.
    /// - Throws: `AutoLocationFailure` saying why neither gave a place.
    package func locate(clock: any RuntimeClock) async throws(AutoLocationFailure) -> (
        found: FoundLocation, serviceFailure: String?
    ) {
        let why: String
        do {
            let fix = try await service(clock, timeout)
            guard (-90...90).contains(fix.lat), (-180...180).contains(fix.lon) else {
                throw AutoLocationFailure("GeoClue gave a position off the globe")
            }
            return (FoundLocation(lat: fix.lat, lon: fix.lon, source: .geoclue, accuracyM: fix.accuracyM), nil)
        } catch {
            why = "\(error)"
        }
        guard let zone = timeZone() else {
            throw AutoLocationFailure("\(why), and the system's time zone has no name")
        }
        let (table, links) = cities()
        guard let city = table.principalLocation(of: zone, links: links) else {
            throw AutoLocationFailure("\(why), and the time zone \(zone) names no city")
        }
        let found = FoundLocation(
            lat: city.lat, lon: city.lon, source: .timezone, zone: zone, name: ZoneTable.cityName(of: city.identifier))
        return (found, why)
    }
}

/// Why weatherd found no location by itself: in words that hold no coordinates.
package struct AutoLocationFailure: Error, Sendable, Equatable, CustomStringConvertible {
    package var description: String

    package init(_ description: String) { self.description = description }
}
