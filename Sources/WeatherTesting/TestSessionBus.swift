import Foundation
import Synchronization
import WeatherRuntime
import WeatherService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A session bus for tests, with a notification server on it (or none): it speaks the handshake and the
/// message protocol as dbus-daemon does (an `OK` with a guid, `Hello` answered with a unique name and then
/// a `NameAcquired` signal), answers `org.freedesktop.Notifications` as a notification daemon does, and
/// keeps every message it received for the test to look at.
package final class TestSessionBus: Sendable {
    /// The address to give as `DBUS_SESSION_BUS_ADDRESS`.
    package let address: String
    private let path: String
    private let listener: Int32
    private let state = Mutex(State())

    private struct State {
        var received: [DBusMessage] = []
        var authLines: [String] = []
        var nextId: UInt32 = 1
        var nextName = 1
        /// The connections being served; each is closed by its own thread, under the lock, as it ends.
        var open: Set<Int32> = []
        var stopped = false
        /// Whether `Notify` calls are kept unanswered (`holdNotifyReplies`).
        var holdingNotify = false
    }

    /// What the bus offers.
    package enum Mode: Sendable {
        /// A notification server answers.
        case notifications
        /// No notification server: calls to it get `ServiceUnknown`, as from a bus without one.
        case noServer
        /// The handshake is refused.
        case refuseAuth
    }

    package init(_ mode: Mode = .notifications) throws {
        let directory = NSTemporaryDirectory() + "wd-bus-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        path = directory + "/bus"
        address = "unix:path=\(path),guid=0123456789abcdef0123456789abcdef"
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(listener, 8) == 0 else { throw DBusWireError("the test bus cannot listen") }
        // The accept thread owns the listener and closes it when accepting fails (after `stop`), so no other
        // thread ever uses or closes a descriptor number that may already belong to something else.
        startThread(named: "test-bus") { [self, listener] in
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else {
                    close(listener)
                    return
                }
                let served = state.withLock { state in
                    state.stopped ? false : state.open.insert(client).inserted
                }
                guard served else {
                    close(client)
                    continue
                }
                startThread(named: "test-bus-client") {
                    self.serve(client, mode)
                    self.state.withLock { state in
                        state.open.remove(client)
                        close(client)
                    }
                }
            }
        }
    }

    /// Every message the bus received, in order.
    package var received: [DBusMessage] { state.withLock { $0.received } }

    /// The handshake lines clients sent (`AUTH EXTERNAL 31303030`, `BEGIN`).
    package var authLines: [String] { state.withLock { $0.authLines } }

    /// From now on, `Notify` calls are received and kept but never answered (`true`), or answered again
    /// (`false`): a client is then caught between asking to show a notification and hearing that it was.
    package func holdNotifyReplies(_ hold: Bool) { state.withLock { $0.holdingNotify = hold } }

    /// The calls of `member` to the notification server.
    package func calls(_ member: String) -> [DBusMessage] {
        received.filter { $0.destination == "org.freedesktop.Notifications" && $0.member == member }
    }

    /// Stops listening and ends every connection (once; later calls do nothing). Each descriptor is closed by
    /// the thread that uses it.
    package func stop() {
        let first = state.withLock { state in
            defer { state.stopped = true }
            if !state.stopped {
                for fd in state.open { shutdown(fd, Int32(SHUT_RDWR)) }
            }
            return !state.stopped
        }
        guard first else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        unlink(path)
    }

    deinit { stop() }

    private func serve(_ fd: Int32, _ mode: Mode) {
        var framer = DBusFramer()
        func fill() -> Bool {
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { Descriptor.read(fd, into: $0) }
            guard count > 0 else { return false }
            framer.append(chunk[..<count])
            return true
        }
        func line() -> String? {
            while true {
                let next: String?
                do {
                    next = try framer.line()
                } catch {
                    return nil
                }
                if let text = next {
                    state.withLock { $0.authLines.append(text) }
                    return text
                }
                guard fill() else { return nil }
            }
        }
        // Bytes of a signal held back to go out before the next message, as a stream socket may cut a
        // message anywhere: a client must keep what it read past a reply.
        var held: [UInt8] = []
        func send(_ message: DBusMessage, cutting signal: DBusMessage? = nil) {
            var bytes = held + message.bytes
            held = []
            if let signal {
                let whole = signal.bytes
                bytes += whole.prefix(10)
                held = Array(whole.dropFirst(10))
            }
            Descriptor.writeAll(fd, bytes)
        }
        while framer.isEmpty { guard fill() else { return } }
        guard framer.firstByte() == 0, line()?.hasPrefix("AUTH EXTERNAL ") == true else { return }
        if case .refuseAuth = mode {
            Descriptor.writeAll(fd, Array("REJECTED EXTERNAL\r\n".utf8))
            return
        }
        Descriptor.writeAll(fd, Array("OK 0123456789abcdef0123456789abcdef\r\n".utf8))
        guard line() == "BEGIN" else { return }
        var serial: UInt32 = 1
        func reply(to call: DBusMessage, _ body: [DBusValue], error: String? = nil, cutting signal: DBusMessage? = nil)
        {
            serial += 1
            send(
                DBusMessage(
                    kind: error == nil ? .methodReturn : .error, serial: serial, errorName: error,
                    replySerial: call.serial, sender: "org.freedesktop.DBus", body: body),
                cutting: signal)
        }
        while true {
            let next: DBusMessage?
            do {
                next = try framer.message()
            } catch {
                return
            }
            guard let call = next else {
                guard fill() else { return }
                continue
            }
            state.withLock { $0.received.append(call) }
            switch (call.destination, call.member) {
            case ("org.freedesktop.DBus", "Hello"):
                let name = state.withLock { state in
                    defer { state.nextName += 1 }
                    return ":1.\(state.nextName)"
                }
                reply(to: call, [.string(name)])
                serial += 1
                send(
                    DBusMessage(
                        kind: .signal, serial: serial, path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                        member: "NameAcquired", destination: name, sender: "org.freedesktop.DBus", body: [.string(name)]
                    ))
            case ("org.freedesktop.Notifications", let member):
                guard case .notifications = mode else {
                    reply(
                        to: call,
                        [.string("The name org.freedesktop.Notifications was not provided by any .service files")],
                        error: "org.freedesktop.DBus.Error.ServiceUnknown")
                    continue
                }
                switch member {
                case "Notify" where call.signature == "susssasa{sv}i":
                    if state.withLock({ $0.holdingNotify }) { continue }
                    let replaces = call.body[1].uint32Value ?? 0
                    let id =
                        replaces != 0
                        ? replaces
                        : state.withLock { state in
                            defer { state.nextId += 1 }
                            return state.nextId
                        }
                    serial += 1
                    let closed = DBusMessage(
                        kind: .signal, serial: serial, path: "/org/freedesktop/Notifications",
                        interface: "org.freedesktop.Notifications", member: "NotificationClosed",
                        sender: "org.freedesktop.Notifications", body: [.uint32(id), .uint32(3)])
                    reply(to: call, [.uint32(id)], cutting: closed)
                case "CloseNotification" where call.signature == "u":
                    reply(to: call, [])
                case "GetServerInformation":
                    reply(to: call, [.string("test-bus"), .string("weatherd"), .string("1"), .string("1.2")])
                default:
                    reply(
                        to: call, [.string("bad call \(member ?? "")")], error: "org.freedesktop.DBus.Error.InvalidArgs"
                    )
                }
            default:
                reply(to: call, [.string("unknown")], error: "org.freedesktop.DBus.Error.UnknownMethod")
            }
        }
    }
}
