import Synchronization
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a call on the bus failed.
package enum DBusError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `DBUS_SESSION_BUS_ADDRESS` is missing or names no socket weatherd can connect to.
    case noBus(String)
    /// The bus refused the handshake.
    case refused(String)
    /// The connection broke or sent what is not D-Bus.
    case broken(String)
    /// The peer answered with a D-Bus error (`org.freedesktop.DBus.Error.ServiceUnknown`: no notification server).
    case remote(name: String, message: String)

    package var description: String {
        switch self {
        case .noBus(let detail): "no session bus: \(detail)"
        case .refused(let detail): "the session bus refused weatherd: \(detail)"
        case .broken(let detail): "the session bus connection broke: \(detail)"
        case .remote(let name, let message): "\(name): \(message)"
        }
    }
}

/// One connection to a message bus over its Unix socket: the handshake, `Hello`, then method calls one at a
/// time, each waiting for its reply (signals the bus sends meanwhile are skipped). The blocking reads and
/// writes run on a thread of their own; a reply that does not come within `replyTimeoutSeconds` (the
/// D-Bus default, 25 s) breaks the connection.
package final class DBusConnection: Sendable {
    /// The unique name the bus gave this connection (`:1.42`).
    package let uniqueName: String
    private let fd: Int32
    private let serial = Mutex<UInt32>(1)
    private let calls = Mutex<Void>(())

    package static let replyTimeoutSeconds = 25

    /// The socket path of a bus address: the first `unix:path=…` of `address` (several are separated by `;`).
    package static func socketPath(of address: String) throws(DBusError) -> String {
        for entry in address.split(separator: ";") where entry.hasPrefix("unix:") {
            for pair in entry.dropFirst(5).split(separator: ",") where pair.hasPrefix("path=") {
                return Self.unescape(String(pair.dropFirst(5)))
            }
        }
        throw .noBus("\(address.isEmpty ? "DBUS_SESSION_BUS_ADDRESS is not set" : "no unix:path= in \(address)")")
    }

    /// Connects to the bus at `address` as user `uid`, authenticates and says `Hello`.
    package static func connect(address: String, uid: UInt32) async throws(DBusError) -> DBusConnection {
        let path = try socketPath(of: address)
        let result = await onOwnThread(named: "dbus-connect") { () -> Result<(Int32, String), DBusError> in
            let fd: Int32
            do throws(SocketError) {
                fd = try UnixSocket.connect(path)
            } catch {
                return .failure(.noBus("\(error)"))
            }
            var timeout = timeval(tv_sec: replyTimeoutSeconds, tv_usec: 0)
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var reader = LineReader(fd: fd)
            do throws(DBusError) {
                try send(fd, DBusAuth.start(uid: uid))
                let line = try reader.line()
                guard DBusAuth.accepted(line) != nil else { throw .refused(line) }
                try send(fd, DBusAuth.begin)
                let hello = DBusMessage.call(
                    serial: 1, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                    interface: "org.freedesktop.DBus", member: "Hello")
                try send(fd, hello.bytes)
                let reply = try receiveReply(fd, to: 1, pending: reader.rest)
                guard let name = reply.body.first?.text else { throw .broken("Hello gave no name") }
                return .success((fd, name))
            } catch {
                close(fd)
                return .failure(error)
            }
        }
        let (fd, name) = try result.get()
        return DBusConnection(fd: fd, uniqueName: name)
    }

    private init(fd: Int32, uniqueName: String) {
        self.fd = fd
        self.uniqueName = uniqueName
        serial.withLock { $0 = 2 }
    }

    deinit { close(fd) }

    /// Calls `member` and returns the reply's body.
    package func call(
        destination: String, path: String, interface: String, member: String, _ body: [DBusValue]
    ) async throws(DBusError) -> [DBusValue] {
        let number = serial.withLock { serial in
            defer { serial &+= 1 }
            return serial
        }
        let message = DBusMessage.call(
            serial: number, destination: destination, path: path, interface: interface, member: member, body: body)
        let result = await onOwnThread(named: "dbus-call") { [self] () -> Result<[DBusValue], DBusError> in
            calls.withLock { _ in
                do throws(DBusError) {
                    try Self.send(fd, message.bytes)
                    return .success(try Self.receiveReply(fd, to: number, pending: []).body)
                } catch {
                    return .failure(error)
                }
            }
        }
        return try result.get()
    }

    private static func send(_ fd: Int32, _ bytes: [UInt8]) throws(DBusError) {
        if let code = Descriptor.writeAll(fd, bytes, using: .send(flags: UnixSocket.sendFlags)) {
            throw .broken(String(cString: strerror(code)))
        }
    }

    /// Reads messages until the reply to `serial`: its return, or its error as `.remote`.
    private static func receiveReply(_ fd: Int32, to serial: UInt32, pending: [UInt8]) throws(DBusError)
        -> DBusMessage
    {
        var buffer = pending
        while true {
            var length: Int?
            do throws(DBusWireError) {
                length = try DBusMessage.length(of: buffer[...])
            } catch {
                throw .broken(error.message)
            }
            if let length, buffer.count >= length {
                let message: DBusMessage
                do throws(DBusWireError) {
                    message = try DBusMessage(bytes: Array(buffer[..<length]))
                } catch {
                    throw .broken(error.message)
                }
                buffer.removeFirst(length)
                guard message.replySerial == serial else { continue }
                if message.kind == .error {
                    throw .remote(name: message.errorName ?? "error", message: message.body.first?.text ?? "")
                }
                return message
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { Descriptor.read(fd, into: $0) }
            guard count > 0 else {
                throw .broken(count == 0 ? "the bus closed the connection" : String(cString: strerror(errno)))
            }
            buffer += chunk[..<count]
        }
    }

    /// `%xx` escapes of an address value.
    static func unescape(_ text: String) -> String {
        var bytes: [UInt8] = []
        var rest = Array(text.utf8)[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "%"), rest.count >= 2,
                let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                rest = rest.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Reads the handshake's `\r\n`-ended lines, keeping what follows the last one (the first message's bytes).
private struct LineReader {
    let fd: Int32
    private(set) var rest: [UInt8] = []

    init(fd: Int32) { self.fd = fd }

    mutating func line() throws(DBusError) -> String {
        while true {
            if let end = rest.firstIndex(of: UInt8(ascii: "\n")) {
                let line = rest[..<end].filter { $0 != UInt8(ascii: "\r") }
                rest.removeFirst(end + 1)
                return String(decoding: line, as: UTF8.self)
            }
            guard rest.count < 16 * 1024 else { throw .broken("a handshake line past 16 KiB") }
            var chunk = [UInt8](repeating: 0, count: 512)
            let count = chunk.withUnsafeMutableBytes { Descriptor.read(fd, into: $0) }
            guard count > 0 else { throw .broken("the bus closed the connection during the handshake") }
            rest += chunk[..<count]
        }
    }
}
