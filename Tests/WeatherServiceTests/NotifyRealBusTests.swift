import Testing
import WeatherDomain
import WeatherService
import WeatherTesting

@testable import WeatherCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("weatherd notify through a real dbus-daemon: a test notification server owns the name; calls go through")
struct NotifyRealBusTests {
    static let notice = AlertNotice(
        .object([
            "id": "alert-1", "rule": "official", "place": .object(["name": "Phoenix"]),
            "message": "NWS Phoenix: Wind Advisory (Phoenix).",
            "details": .object(["warning": .object(["event": "Wind Advisory", "severity": "Severe"])]),
        ]))

    /// Before a server owns the name, the bus says so; then Notify, a replacement and CloseNotification go
    /// through the bus to the server and back.
    static func exercise(_ bus: RealSessionBus) async throws {
        do {
            _ = try await Desktop.connect(address: bus.address, uid: getuid(), runtime: .testing())
            Issue.record("a notification server answered on a bus that has none")
        } catch {
            #expect(Notifier.unavailable(error).hasPrefix("no notification server on the session bus"), "\(error)")
        }
        let server = try await TestNotificationServer.start(address: bus.address)
        defer { server.stop() }
        #expect(server.uniqueName.hasPrefix(":1."))
        let desktop = try await Desktop.connect(address: bus.address, uid: getuid(), runtime: .testing())
        let first = try await desktop.show(Self.notice, replaces: 0)
        #expect(first == 1)
        #expect(try await desktop.show(Self.notice, replaces: first) == first, "replaced in place")
        let second = try await desktop.show(Self.notice, replaces: 0)
        #expect(second == 2)
        try await desktop.close(second)

        let notify = server.calls("Notify")
        #expect(notify.map { $0.body[1] } == [.uint32(0), .uint32(first), .uint32(0)])
        #expect(notify.first?.body == Desktop.arguments(Self.notice, replaces: 0), "the arguments arrive as sent")
        #expect(notify.allSatisfy { $0.sender == desktop.connection.uniqueName }, "the bus names the caller")
        #expect(server.calls("CloseNotification").map(\.body) == [[.uint32(second)]])
        #expect(server.calls("GetServerInformation").count == 1)
    }

    @Test(
        "on a socket path: Notify, replace and CloseNotification reach the server through dbus-daemon, ids come back",
        .enabled(if: RealSessionBus.testable, .init(rawValue: RealSessionBus.skipped)))
    func socketPath() async throws {
        let bus = try await RealSessionBus(.path)
        defer { bus.stop() }
        #expect(bus.address.hasPrefix("unix:path="), "\(bus.address)")
        try await Self.exercise(bus)
    }

    @Test(
        "on an abstract socket (unix:abstract=): the same, through dbus-daemon",
        .enabled(
            if: RealSessionBus.testable && RealSessionBus.abstractSockets,
            .init(rawValue: RealSessionBus.skipped + "; abstract sockets are Linux's alone")))
    func abstractSocket() async throws {
        let bus = try await RealSessionBus(.abstract)
        defer { bus.stop() }
        #expect(bus.address.hasPrefix("unix:abstract="), "\(bus.address)")
        try await Self.exercise(bus)
    }
}
