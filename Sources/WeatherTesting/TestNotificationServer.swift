import Synchronization
import WeatherRuntime
import WeatherService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A notification server on a real message bus, for tests: it connects as any client of the bus does (the
/// `EXTERNAL` handshake, `Hello`), owns `org.freedesktop.Notifications` (`RequestName`), and answers
/// `Notify`, `CloseNotification` and `GetServerInformation` as a notification daemon does, keeping every
/// call it answered for the test to look at.
package final class TestNotificationServer: Sendable {
    package static let name = "org.freedesktop.Notifications"

    /// The unique name the bus gave the server (`:1.3`).
    package let uniqueName: String
    private let fd: Int32
    private let state = Mutex(State())

    private struct State {
        var calls: [DBusMessage] = []
        var nextId: UInt32 = 1
        var stopped = false
    }

    /// Connects to the bus at `address`, takes the name and starts answering on a thread of its own.
    ///
    /// - Throws: `DBusError` when the bus cannot be reached, refuses the handshake, or gives the name to
    ///   another connection.
    package static func start(address: String) async throws(DBusError) -> TestNotificationServer {
        let (fd, unique, framer) = try await TestBusPeer.connect(address: address, owning: name)
        return TestNotificationServer(fd: fd, uniqueName: unique, framer: framer)
    }

    private init(fd: Int32, uniqueName: String, framer: DBusFramer) {
        self.fd = fd
        self.uniqueName = uniqueName
        // The serving thread owns the descriptor and closes it when reading ends (after `stop`).
        startThread(named: "test-notifications") { [self] in
            TestBusPeer.serve(fd, framer) { call, serial in
                serial += 1
                let reply = answer(call, serial: serial)
                if reply.kind == .methodReturn { state.withLock { $0.calls.append(call) } }
                return [reply]
            }
            close(fd)
        }
    }

    /// Every call to the server it answered, in order.
    package var calls: [DBusMessage] { state.withLock { $0.calls } }

    /// The answered calls of `member`.
    package func calls(_ member: String) -> [DBusMessage] { calls.filter { $0.member == member } }

    /// Leaves the bus (once; later calls do nothing): the serving thread's read ends and it closes the socket.
    package func stop() {
        let first = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        if first { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    deinit { stop() }

    /// The reply to `call`: a notification daemon's, or `UnknownMethod`.
    private func answer(_ call: DBusMessage, serial: UInt32) -> DBusMessage {
        var body: [DBusValue]? = nil
        switch (call.interface, call.member, call.signature) {
        case (Self.name, "Notify", "susssasa{sv}i"):
            let replaces = call.body[1].uint32Value ?? 0
            let id =
                replaces != 0
                ? replaces
                : state.withLock { state in
                    defer { state.nextId += 1 }
                    return state.nextId
                }
            body = [.uint32(id)]
        case (Self.name, "CloseNotification", "u"):
            body = []
        case (Self.name, "GetServerInformation", _):
            body = [.string("weatherd-tests"), .string("weatherd"), .string("1"), .string("1.2")]
        default:
            break
        }
        guard let body else {
            return DBusMessage(
                kind: .error, serial: serial, errorName: "org.freedesktop.DBus.Error.UnknownMethod",
                replySerial: call.serial, destination: call.sender,
                body: [.string("no \(call.member ?? "") with signature \(call.signature)")])
        }
        return DBusMessage(
            kind: .methodReturn, serial: serial, replySerial: call.serial, destination: call.sender, body: body)
    }
}
