import Foundation
import Testing
import WeatherEngine
import WeatherService
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("GeoClue2 over a real dbus-daemon: a stand-in that finds, one that refuses, one that never finds, and none")
struct GeoClueTests {
    static let berlin = (lat: 52.516_275, lon: 13.377_704, accuracy: 4_000.0)

    /// A private bus with GeoClue's stand-in on it, and weatherd's GeoClue pointed at it.
    static func withGeoClue(
        _ behaviour: TestGeoClue.Behaviour, _ body: (TestGeoClue, GeoClue) async throws -> Void
    ) async throws {
        let bus = try await RealSessionBus(.path)
        defer { bus.stop() }
        let stand = try await TestGeoClue.start(address: bus.address, behaviour)
        defer { stand.stop() }
        try await body(stand, GeoClue(address: bus.address, uid: getuid(), runtime: .testing()))
    }

    /// Every call weatherd made is one GeoClue's introspection describes, with its signature and access.
    static func expectConforming(_ calls: [DBusMessage]) throws {
        let described = try GeoClueIntrospection.load()
        for call in calls { #expect(described.problem(with: call) == nil, "\(described.problem(with: call) ?? "")") }
    }

    /// What weatherd asked for before `Start`: its desktop id and city accuracy, through `Properties.Set`.
    static func expectSettings(_ stand: TestGeoClue) {
        #expect(stand.clientProperty("DesktopId") == .string("weatherd"))
        #expect(stand.clientProperty("RequestedAccuracyLevel") == .uint32(4), "city")
        let members = stand.calls.map { $0.member ?? "" }
        let start = members.firstIndex(of: "Start") ?? members.count
        #expect(members.prefix(start).filter { $0 == "Set" }.count == 2, "both set before Start: \(members)")
    }

    @Test(
        "a location found after Start comes by LocationUpdated (routed by weatherd's match rule); then Stop",
        .enabled(if: RealSessionBus.testable, .init(rawValue: RealSessionBus.skipped)))
    func fixAfterStart() async throws {
        try await Self.withGeoClue(.fixAfterStart(lat: Self.berlin.lat, lon: Self.berlin.lon, accuracy: 4000)) {
            stand, geoClue in
            let fix = try await geoClue.locate(clock: ManualClock(), timeout: .seconds(10))
            #expect(fix == ServiceFix(lat: Self.berlin.lat, lon: Self.berlin.lon, accuracyM: 4000))
            Self.expectSettings(stand)
            let members = stand.calls.map { $0.member ?? "" }
            #expect(members.first == "GetClient")
            #expect(members.last == "Stop", "\(members)")
            #expect(stand.calls("Start").count == 1)
            let reads = stand.calls("Get").compactMap { $0.body.dropFirst().first?.text }
            #expect(reads == ["Location", "Latitude", "Longitude", "Accuracy"], "Location read once, as /")
            #expect(stand.clientProperty("Active") == .boolean(false), "stopped")
            try Self.expectConforming(stand.calls)
        }
    }

    @Test(
        "a location GeoClue had already is read from the client's Location property; then Stop",
        .enabled(if: RealSessionBus.testable, .init(rawValue: RealSessionBus.skipped)))
    func fixAtOnce() async throws {
        try await Self.withGeoClue(.fixAtOnce(lat: -33.8688, lon: 151.2093, accuracy: 0)) { stand, geoClue in
            let fix = try await geoClue.locate(clock: ManualClock(), timeout: .seconds(10))
            #expect(fix == ServiceFix(lat: -33.8688, lon: 151.2093, accuracyM: nil), "an accuracy of 0 is unknown")
            Self.expectSettings(stand)
            let reads = stand.calls("Get").compactMap { $0.body.dropFirst().first?.text }
            #expect(reads == ["Location", "Latitude", "Longitude", "Accuracy"])
            #expect(stand.calls.last?.member == "Stop")
            try Self.expectConforming(stand.calls)
        }
    }

    @Test(
        "a refusing GeoClue (AccessDenied at Start) is told as a refusal, with GeoClue's words",
        .enabled(if: RealSessionBus.testable, .init(rawValue: RealSessionBus.skipped)))
    func refused() async throws {
        try await Self.withGeoClue(.refuse) { stand, geoClue in
            do throws(GeoClueError) {
                _ = try await geoClue.locate(clock: ManualClock(), timeout: .seconds(10))
                Issue.record("a refusing GeoClue gave a location")
            } catch {
                #expect(error.kind == "refused")
                #expect(error.description == "GeoClue refused weatherd (\(TestGeoClue.refusal))")
            }
            Self.expectSettings(stand)
            #expect(stand.calls("Stop").isEmpty, "nothing started, nothing to stop")
        }
    }

    @Test(
        "a GeoClue that never finds is given up after the timeout on the runtime clock, and told to Stop",
        .enabled(if: RealSessionBus.testable, .init(rawValue: RealSessionBus.skipped)))
    func silent() async throws {
        try await Self.withGeoClue(.silent) { stand, geoClue in
            let clock = ManualClock()
            let located = Task { () -> Result<ServiceFix, GeoClueError> in
                do throws(GeoClueError) {
                    return .success(try await geoClue.locate(clock: clock, timeout: .seconds(10)))
                } catch {
                    return .failure(error)
                }
            }
            #expect(await eventually { stand.calls("Get").count == 1 }, "started, and waiting for a fix")
            await clock.sleepers(atLeast: 1, until: clock.now.advanced(by: .seconds(10)))
            clock.advance(by: .seconds(9))
            #expect(stand.calls("Stop").isEmpty, "not before the timeout")
            clock.advance(by: .seconds(1))
            let outcome = await withHangGuard { await located.value }
            guard case .failure(let error)? = outcome else {
                Issue.record("a silent GeoClue gave \(String(describing: outcome))")
                return
            }
            #expect(error.kind == "no_fix")
            #expect(error.description == "GeoClue found no location within 10 s")
            #expect(await eventually { stand.calls("Stop").count == 1 }, "the client is stopped")
            try Self.expectConforming(stand.calls)
        }
    }

    @Test(
        "a bus without GeoClue says it is not running",
        .enabled(if: RealSessionBus.testable, .init(rawValue: RealSessionBus.skipped)))
    func notRunning() async throws {
        let bus = try await RealSessionBus(.path)
        defer { bus.stop() }
        do throws(GeoClueError) {
            _ = try await GeoClue(address: bus.address, uid: getuid(), runtime: .testing()).locate(
                clock: ManualClock(), timeout: .seconds(10))
            Issue.record("a GeoClue answered on a bus without one")
        } catch {
            #expect(error.kind == "not_running")
            #expect(error.description.hasPrefix("GeoClue is not running on the system bus"), "\(error)")
        }
    }

    @Test("no system bus at the address: no_bus, naming the address")
    func noBus() async throws {
        let address = "unix:path=/nonexistent/weatherd-system-bus"
        do throws(GeoClueError) {
            _ = try await GeoClue(address: address, uid: getuid(), runtime: .testing()).locate(
                clock: ManualClock(), timeout: .seconds(10))
            Issue.record("located through no bus")
        } catch {
            #expect(error.kind == "no_bus")
            #expect(error.description.hasPrefix("no system bus to ask GeoClue on (\(address): "), "\(error)")
        }
    }

    @Test("the system bus: DBUS_SYSTEM_BUS_ADDRESS, else /run/dbus/system_bus_socket")
    func systemBus() {
        #expect(GeoClue.systemBus([:]) == "unix:path=/run/dbus/system_bus_socket")
        #expect(GeoClue.systemBus(["DBUS_SYSTEM_BUS_ADDRESS": ""]) == "unix:path=/run/dbus/system_bus_socket")
        #expect(GeoClue.systemBus(["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/tmp/x"]) == "unix:path=/tmp/x")
    }

    @Test("the stand-in's properties are GeoClue's: every one in the introspection, with its type and access")
    func standInConforms() throws {
        let described = try GeoClueIntrospection.load()
        for (interface, properties) in TestGeoClue.properties {
            for (name, property) in properties {
                let declared = described.properties[interface]?[name]
                #expect(declared?.type == property.type, "\(interface).\(name)")
                #expect((declared?.access == "readwrite") == property.writable, "\(interface).\(name)")
            }
        }
        #expect(described.signals[GeoClue.clientInterface]?["LocationUpdated"] == "oo")
        #expect(described.methods[GeoClue.managerInterface]?["GetClient"] == "")
    }
}
