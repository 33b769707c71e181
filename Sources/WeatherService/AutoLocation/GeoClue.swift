import Providers
import WeatherEngine
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// GeoClue2, the system's location service, asked over the system bus where the machine is, at city
/// accuracy: `Manager.GetClient`, the client's `DesktopId` (`weatherd`) and `RequestedAccuracyLevel` (city),
/// its `Start`, then its `Location` (or the `LocationUpdated` that sets it), whose `Latitude`, `Longitude` and
/// `Accuracy` are the fix; then `Stop`. The whole exchange is bounded on the runtime clock; a connection given
/// up is stopped and closed.
package struct GeoClue: Sendable {
    /// GeoClue's name on the bus.
    package static let service = "org.freedesktop.GeoClue2"
    package static let managerPath = "/org/freedesktop/GeoClue2/Manager"
    package static let managerInterface = "org.freedesktop.GeoClue2.Manager"
    package static let clientInterface = "org.freedesktop.GeoClue2.Client"
    package static let locationInterface = "org.freedesktop.GeoClue2.Location"
    /// The desktop id GeoClue's authorization knows weatherd by.
    package static let desktopId = "weatherd"
    /// GeoClue's accuracy level `city` (GClueAccuracyLevel: none 0, country 1, city 4, neighborhood 5, street 6,
    /// exact 8): enough for weather, and all weatherd asks for.
    package static let cityAccuracy: UInt32 = 4
    /// Where the system bus listens when `DBUS_SYSTEM_BUS_ADDRESS` does not say.
    package static let standardSystemBus = "unix:path=/run/dbus/system_bus_socket"

    /// The system bus's address.
    package var address: String
    /// The user weatherd authenticates as.
    package var uid: UInt32
    /// The event loop its connections are served on (and the pool; the clock is `locate`'s).
    package var runtime: Runtime

    package init(address: String, uid: UInt32, runtime: Runtime) {
        self.address = address
        self.uid = uid
        self.runtime = runtime
    }

    /// The system bus of `environment`: `DBUS_SYSTEM_BUS_ADDRESS`, else the standard socket.
    package static func systemBus(_ environment: [String: String]) -> String {
        guard let address = environment["DBUS_SYSTEM_BUS_ADDRESS"], !address.isEmpty else { return standardSystemBus }
        return address
    }

    /// The engine's way to find the machine: GeoClue on the system bus of `environment`, then the principal
    /// city of the time zone `environment` and the system name (`SystemTimeZone`).
    package static func locator(environment: [String: String], runtime: Runtime) -> AutoLocator {
        let geoClue = GeoClue(address: systemBus(environment), uid: getuid(), runtime: runtime)
        return AutoLocator(
            service: { clock, timeout in try await geoClue.locate(clock: clock, timeout: timeout) },
            timeZone: { SystemTimeZone.identifier(environment: environment) })
    }

    /// Asks GeoClue where the machine is, for at most `timeout` on `clock`.
    ///
    /// - Throws: `GeoClueError`: no bus, GeoClue not running, GeoClue refusing weatherd, no fix in time.
    package func locate(clock: any RuntimeClock, timeout: Duration) async throws(GeoClueError) -> ServiceFix {
        let session = GeoClueSession(address: address, uid: uid, runtime: runtime.with(clock: clock))
        let outcome = await withDeadline(
            clock.deadline(after: timeout), clock: clock,
            operation: { () -> Result<ServiceFix, GeoClueError>? in await session.run() }, onTimeout: { nil })
        guard let outcome else {
            session.abandon()
            throw GeoClueError.noFix(within: timeout)
        }
        session.close()
        return try outcome.get()
    }
}
