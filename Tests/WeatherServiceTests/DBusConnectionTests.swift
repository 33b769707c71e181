import Foundation
import Testing
import WeatherService
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("D-Bus connection: the handshake, Hello and calls, against the test bus and a real dbus-daemon")
struct DBusConnectionTests {
    static let notifications = (
        destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
        interface: "org.freedesktop.Notifications"
    )

    static func notify(_ connection: DBusConnection, replaces: UInt32 = 0) async throws(DBusError) -> [DBusValue] {
        try await connection.call(
            destination: notifications.destination, path: notifications.path, interface: notifications.interface,
            member: "Notify",
            [
                .string("weatherd"), .uint32(replaces), .string("weather-storm"), .string("Storm"), .string("Gusts"),
                .array("s", []), .vardict([("urgency", .byte(2))]), .int32(-1),
            ])
    }

    @Test("EXTERNAL with this user's uid, Hello's unique name, Notify's id, replacing and closing")
    func notificationServer() async throws {
        let bus = try TestSessionBus()
        defer { bus.stop() }
        let connection = try await DBusConnection.connect(address: bus.address, uid: getuid(), runtime: .testing())
        #expect(connection.uniqueName == ":1.1")
        let hex = String(getuid()).utf8.map { String($0, radix: 16) }.joined()
        #expect(bus.authLines == ["AUTH EXTERNAL \(hex)", "BEGIN"])
        #expect(try await Self.notify(connection) == [.uint32(1)])
        #expect(try await Self.notify(connection, replaces: 1) == [.uint32(1)], "replaced in place")
        #expect(try await Self.notify(connection) == [.uint32(2)])
        _ = try await connection.call(
            destination: Self.notifications.destination, path: Self.notifications.path,
            interface: Self.notifications.interface, member: "CloseNotification", [.uint32(2)])
        let notify = bus.calls("Notify")
        #expect(notify.count == 3)
        #expect(notify.first?.body[3] == .string("Storm"))
        #expect(notify.first?.path == "/org/freedesktop/Notifications")
        #expect(bus.calls("CloseNotification").first?.body == [.uint32(2)])
        #expect(bus.received.map(\.serial) == [1, 2, 3, 4, 5], "serials count up from Hello's 1")
    }

    @Test("a reply that does not come within the reply timeout on the runtime's clock is noReply, naming the call")
    func noReply() async throws {
        let bus = try TestSessionBus()
        defer { bus.stop() }
        let clock = ManualClock()
        let connection = try await DBusConnection.connect(
            address: bus.address, uid: getuid(), runtime: .testing(clock: clock), replyTimeout: .seconds(25))
        bus.holdNotifyReplies(true)
        let call = Task { () -> Result<[DBusValue], DBusError> in
            do throws(DBusError) {
                return .success(try await Self.notify(connection))
            } catch {
                return .failure(error)
            }
        }
        #expect(await eventually { bus.calls("Notify").count == 1 }, "the call was sent")
        await clock.timerArmed(.seconds(25))
        clock.advance(by: .seconds(24))
        #expect(bus.calls("Notify").count == 1)
        clock.advance(by: .seconds(1))
        let result = await call.value
        guard case .failure(.noReply(let detail)) = result else {
            Issue.record("expected noReply, got \(result)")
            return
        }
        #expect(detail.contains("Notify"), "\(detail)")
    }

    @Test("no notification server is a remote ServiceUnknown; a refused handshake and no bus say so")
    func failures() async throws {
        let none = try TestSessionBus(.noServer)
        defer { none.stop() }
        let connection = try await DBusConnection.connect(address: none.address, uid: getuid(), runtime: .testing())
        await #expect(
            throws: DBusError.remote(
                name: "org.freedesktop.DBus.Error.ServiceUnknown",
                message: "The name org.freedesktop.Notifications was not provided by any .service files")
        ) {
            _ = try await Self.notify(connection)
        }
        let refusing = try TestSessionBus(.refuseAuth)
        defer { refusing.stop() }
        await #expect(throws: DBusError.refused("REJECTED EXTERNAL")) {
            _ = try await DBusConnection.connect(address: refusing.address, uid: getuid(), runtime: .testing())
        }
        do {
            _ = try await DBusConnection.connect(
                address: "unix:path=/nonexistent/weatherd-bus", uid: getuid(), runtime: .testing())
            Issue.record("connected to nothing")
        } catch {
            guard case .noBus = error else {
                Issue.record("\(error)")
                return
            }
        }
    }

    @Test("bus addresses: the first unix:path= or unix:abstract=, unescaped; anything else is no bus")
    func addresses() throws {
        #expect(try DBusConnection.socket(of: "unix:path=/run/user/1000/bus") == .path("/run/user/1000/bus"))
        #expect(
            try DBusConnection.socket(of: "tcp:host=x,port=1;unix:path=/tmp/a%20b,guid=2;unix:abstract=/tmp/y")
                == .path("/tmp/a b"))
        #expect(try DBusConnection.socket(of: "unix:abstract=/tmp/dbus-x,guid=1") == .abstract("/tmp/dbus-x"))
        for address in ["", "tcp:host=localhost,port=1", "unix:tmpdir=/tmp"] {
            #expect(throws: DBusError.self) { try DBusConnection.socket(of: address) }
        }
    }

    @Test(
        "a real dbus-daemon accepts the handshake and Hello, and names the missing notification server",
        .enabled(if: RealSessionBus.testable, .init(rawValue: RealSessionBus.skipped)))
    func realDaemon() async throws {
        let bus = try await RealSessionBus(.path)
        defer { bus.stop() }
        let address = bus.address
        #expect(address.hasPrefix("unix:path=\(bus.directory)/bus"), "\(address)")
        let connection = try await DBusConnection.connect(address: address, uid: getuid(), runtime: .testing())
        #expect(connection.uniqueName.hasPrefix(":1."))
        do {
            _ = try await Self.notify(connection)
            Issue.record("a notification server answered on a bus that has none")
        } catch {
            guard case .remote(let name, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(name.hasPrefix("org.freedesktop.DBus.Error."))
        }
    }
}
