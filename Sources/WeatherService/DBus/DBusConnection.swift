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

/// Where a bus listens: a socket file, or (Linux) a name in the abstract socket namespace.
package enum DBusSocket: Sendable, Equatable {
    case path(String)
    case abstract(String)
}

/// One connection to a message bus over its Unix socket: the handshake, `Hello`, then method calls one at a
/// time, each waiting for its reply (signals the bus sends meanwhile are skipped). The blocking reads and
/// writes run on a thread of their own; a reply that does not come within `replyTimeoutSeconds` (the
/// D-Bus default, 25 s) breaks the connection.
package final class DBusConnection: Sendable {
    /// The unique name the bus gave this connection (`:1.42`).
    package let uniqueName: String
    let fd: Int32
    private let serial = Mutex<UInt32>(1)
    /// One call at a time; the framer keeps what was read past a reply (a signal's first bytes) for the next.
    let calls: Mutex<DBusFramer>

    package static let replyTimeoutSeconds = 25

    /// The socket of a bus address: the first `unix:path=…` or `unix:abstract=…` of `address` (several are
    /// separated by `;`).
    package static func socket(of address: String) throws(DBusError) -> DBusSocket {
        for entry in address.split(separator: ";") where entry.hasPrefix("unix:") {
            for pair in entry.dropFirst(5).split(separator: ",") {
                if pair.hasPrefix("path=") { return .path(Self.unescape(String(pair.dropFirst(5)))) }
                if pair.hasPrefix("abstract=") { return .abstract(Self.unescape(String(pair.dropFirst(9)))) }
            }
        }
        throw .noBus(
            "\(address.isEmpty ? "DBUS_SESSION_BUS_ADDRESS is not set" : "no unix:path= or unix:abstract= in \(address)")"
        )
    }

    /// Connects to the bus at `address` as user `uid`, authenticates and says `Hello`.
    package static func connect(address: String, uid: UInt32) async throws(DBusError) -> DBusConnection {
        let socket = try socket(of: address)
        let result = await onOwnThread(named: "dbus-connect") { () -> Result<(Int32, String, DBusFramer), DBusError> in
            let fd: Int32
            do throws(DBusError) {
                fd = try open(socket)
            } catch {
                return .failure(error)
            }
            var timeout = timeval(tv_sec: replyTimeoutSeconds, tv_usec: 0)
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var framer = DBusFramer()
            do throws(DBusError) {
                let name = try handshake(fd, uid: uid, &framer)
                return .success((fd, name, framer))
            } catch {
                close(fd)
                return .failure(error)
            }
        }
        let (fd, name, framer) = try result.get()
        return DBusConnection(fd: fd, uniqueName: name, framer: framer)
    }

    private init(fd: Int32, uniqueName: String, framer: DBusFramer) {
        self.fd = fd
        self.uniqueName = uniqueName
        calls = Mutex(framer)
        serial.withLock { $0 = 2 }
    }

    deinit { close(fd) }

    /// Calls `member` and returns the reply's body.
    package func call(
        destination: String, path: String, interface: String, member: String, _ body: [DBusValue]
    ) async throws(DBusError) -> [DBusValue] {
        let number = nextSerial()
        let message = DBusMessage.call(
            serial: number, destination: destination, path: path, interface: interface, member: member, body: body)
        let result = await onOwnThread(named: "dbus-call") { [self] () -> Result<[DBusValue], DBusError> in
            calls.withLock { framer in
                do throws(DBusError) {
                    try Self.send(fd, message.bytes)
                    return .success(try Self.receiveReply(fd, to: number, &framer).body)
                } catch {
                    return .failure(error)
                }
            }
        }
        return try result.get()
    }

    /// The serial of the next message this connection sends.
    func nextSerial() -> UInt32 {
        serial.withLock { serial in
            defer { serial &+= 1 }
            return serial
        }
    }

    /// A connected socket to the bus (the test support's notification server connects through it too).
    package static func open(_ socket: DBusSocket) throws(DBusError) -> Int32 {
        switch socket {
        case .path(let path):
            do throws(SocketError) {
                return try UnixSocket.connect(path)
            } catch {
                throw .noBus("\(error)")
            }
        case .abstract(let name):
            #if os(Linux)
                let bytes = [0] + Array(name.utf8)
                var address = sockaddr_un()
                guard bytes.count <= MemoryLayout.size(ofValue: address.sun_path) else {
                    throw .noBus("the abstract socket name \(name) is too long")
                }
                let fd: Int32
                do throws(SocketError) {
                    fd = try UnixSocket.make()
                } catch {
                    throw .noBus("\(error)")
                }
                address.sun_family = sa_family_t(AF_UNIX)
                withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
                // An abstract name is exactly its bytes: the address ends with them, not at sun_path's end.
                let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
                let result = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
                }
                guard result == 0 else {
                    let code = errno
                    close(fd)
                    throw .noBus("cannot connect to the abstract socket \(name): \(String(cString: strerror(code)))")
                }
                return fd
            #else
                throw .noBus("unix:abstract= sockets exist only on Linux")
            #endif
        }
    }

    /// Authenticates on `fd` as `uid` (SASL `EXTERNAL`) and says `Hello` with serial 1; returns the unique name
    /// the bus gave the connection. What the bus sent after the reply stays in `framer`.
    package static func handshake(_ fd: Int32, uid: UInt32, _ framer: inout DBusFramer) throws(DBusError) -> String {
        try send(fd, DBusAuth.start(uid: uid))
        let line = try receiveLine(fd, &framer)
        guard DBusAuth.accepted(line) != nil else { throw .refused(line) }
        try send(fd, DBusAuth.begin)
        let hello = DBusMessage.call(
            serial: 1, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus", member: "Hello")
        try send(fd, hello.bytes)
        let reply = try receiveReply(fd, to: 1, &framer)
        guard let name = reply.body.first?.text else { throw .broken("Hello gave no name") }
        return name
    }

    /// Writes all of `bytes` to the bus.
    package static func send(_ fd: Int32, _ bytes: [UInt8]) throws(DBusError) {
        if let code = Descriptor.writeAll(fd, bytes, using: .send(flags: UnixSocket.sendFlags)) {
            throw .broken(String(cString: strerror(code)))
        }
    }

    /// Reads more of what the bus sends into `framer`.
    package static func fill(_ fd: Int32, _ framer: inout DBusFramer, during what: String) throws(DBusError) {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { Descriptor.read(fd, into: $0) }
        guard count > 0 else {
            throw .broken(count == 0 ? "the bus closed the connection\(what)" : String(cString: strerror(errno)))
        }
        framer.append(chunk[..<count])
    }

    /// The handshake's next line.
    private static func receiveLine(_ fd: Int32, _ framer: inout DBusFramer) throws(DBusError) -> String {
        while true {
            do throws(DBusWireError) {
                if let line = try framer.line() { return line }
            } catch {
                throw .broken(error.message)
            }
            try fill(fd, &framer, during: " during the handshake")
        }
    }

    /// Reads messages until the reply to `serial`: its return, or its error as `.remote`. What follows the
    /// reply stays in `framer`.
    package static func receiveReply(_ fd: Int32, to serial: UInt32, _ framer: inout DBusFramer) throws(DBusError)
        -> DBusMessage
    {
        while true {
            let next: DBusMessage?
            do throws(DBusWireError) {
                next = try framer.message()
            } catch {
                throw .broken(error.message)
            }
            guard let message = next else {
                try fill(fd, &framer, during: "")
                continue
            }
            guard message.replySerial == serial else { continue }
            if message.kind == .error {
                throw .remote(name: message.errorName ?? "error", message: message.body.first?.text ?? "")
            }
            return message
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
