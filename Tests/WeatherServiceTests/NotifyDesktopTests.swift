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

@Suite("weatherd notify on the desktop: the Notify call's wire format, replacing and closing, no server")
struct NotifyDesktopTests {
    @Test("Notify carries app name, replaces_id, icon, summary, body, no actions, urgency and the default timeout")
    func wireFormat() async throws {
        let bus = try TestSessionBus()
        defer { bus.stop() }
        let desktop = try await Desktop.connect(address: bus.address, uid: getuid(), runtime: .testing())
        let notice = AlertNotice(
            .object([
                "id": "alert-1", "rule": "official", "place": .object(["name": "Phoenix"]),
                "message": "NWS Phoenix: Wind Advisory (Phoenix).",
                "details": .object(["warning": .object(["event": "Wind Advisory", "severity": "Extreme"])]),
            ]))
        let first = try await desktop.show(notice, replaces: 0)
        // Each reply comes with the first bytes of a signal, its rest only before the next reply: the connection
        // keeps them, or the next call would read a broken message.
        let again = try await desktop.show(notice, replaces: first)
        #expect(again == first)
        let other = try await desktop.show(notice, replaces: 0)
        #expect(other != first)
        try await desktop.close(other)
        let calls = bus.calls("Notify")
        #expect(calls.count == 3)
        let call = try #require(calls.first)
        #expect(call.signature == "susssasa{sv}i")
        #expect(call.path == "/org/freedesktop/Notifications")
        #expect(call.interface == "org.freedesktop.Notifications")
        #expect(
            call.body == [
                .string("weatherd"), .uint32(0), .string("weather-severe-alert"), .string("Wind Advisory (Phoenix)"),
                .string("NWS Phoenix: Wind Advisory (Phoenix)."), .array("s", []),
                .vardict([("urgency", .byte(2)), ("category", .string("weather"))]), .int32(-1),
            ])
        #expect(calls[1].body[1] == .uint32(first), "replaces_id")
        #expect(bus.calls("CloseNotification").map(\.body) == [[.uint32(other)]])
    }

    @Test("no notification server on the bus: ServiceUnknown, told as one line")
    func noServer() async throws {
        let bus = try TestSessionBus(.noServer)
        defer { bus.stop() }
        do {
            _ = try await Desktop.connect(address: bus.address, uid: getuid(), runtime: .testing())
            Issue.record("connected to a bus without a notification server")
        } catch {
            #expect(Notifier.unavailable(error).hasPrefix("no notification server on the session bus"))
        }
    }
}
