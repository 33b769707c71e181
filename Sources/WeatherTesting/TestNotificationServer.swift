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
        let socket = try DBusConnection.socket(of: address)
        let result = await onOwnThread(named: "test-notifications-connect") {
            () -> Result<(Int32, String, DBusFramer), DBusError> in
            let fd: Int32
            do throws(DBusError) {
                fd = try DBusConnection.open(socket)
            } catch {
                return .failure(error)
            }
            var framer = DBusFramer()
            do throws(DBusError) {
                let unique = try DBusConnection.handshake(fd, uid: getuid(), &framer)
                // Flag 4: do not queue; the answer 1 means the server is the name's primary owner.
                try DBusConnection.send(fd, busCall(serial: 2, "RequestName", [.string(name), .uint32(4)]).bytes)
                let owner = try DBusConnection.receiveReply(fd, to: 2, &framer).body.first?.uint32Value
                guard owner == 1 else { throw .refused("RequestName answered \(owner.map(String.init) ?? "nothing")") }
                return .success((fd, unique, framer))
            } catch {
                close(fd)
                return .failure(error)
            }
        }
        let (fd, unique, framer) = try result.get()
        return TestNotificationServer(fd: fd, uniqueName: unique, framer: framer)
    }

    private init(fd: Int32, uniqueName: String, framer: DBusFramer) {
        self.fd = fd
        self.uniqueName = uniqueName
        // The serving thread owns the descriptor and closes it when reading ends (after `stop`).
        startThread(named: "test-notifications") { [self] in
            serve(framer)
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

    private func serve(_ start: DBusFramer) {
        var framer = start
        var serial: UInt32 = 2
        while true {
            let next: DBusMessage?
            do {
                next = try framer.message()
            } catch {
                return
            }
            guard let call = next else {
                do throws(DBusError) {
                    try DBusConnection.fill(fd, &framer, during: "")
                } catch {
                    return
                }
                continue
            }
            guard call.kind == .methodCall, call.flags & 1 == 0 else { continue }
            serial += 1
            let reply = answer(call, serial: serial)
            if reply.kind == .methodReturn { state.withLock { $0.calls.append(call) } }
            Descriptor.writeAll(fd, reply.bytes, socket: true)
        }
    }

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

    /// No SIGPIPE when the bus has gone: the write fails instead.
    private static var sendFlags: Int32 {
        #if os(Linux)
            Int32(MSG_NOSIGNAL)
        #else
            0
        #endif
    }

    private static func busCall(serial: UInt32, _ member: String, _ body: [DBusValue]) -> DBusMessage {
        .call(
            serial: serial, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus", member: member, body: body)
    }
}
