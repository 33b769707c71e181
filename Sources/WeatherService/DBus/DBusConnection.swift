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
    /// No reply came within the reply timeout: the call was sent, and the peer may have acted on it.
    case noReply(String)

    package var description: String {
        switch self {
        case .noBus(let detail): "no session bus: \(detail)"
        case .refused(let detail): "the session bus refused weatherd: \(detail)"
        case .broken(let detail): "the session bus connection broke: \(detail)"
        case .remote(let name, let message): "\(name): \(message)"
        case .noReply(let detail): "no reply from the bus \(detail)"
        }
    }
}

/// Where a bus listens: a socket file, or (Linux) a name in the abstract socket namespace.
package enum DBusSocket: Sendable, Equatable {
    case path(String)
    case abstract(String)
}

/// One connection to a message bus over its Unix socket, served by the event loop: the handshake, `Hello`, then
/// method calls, any number at once, each matched to its reply by serial; signals go to whoever waits for one
/// (`nextSignal`), and those nobody waits for yet are kept for a wait to come. A reply that does not come within `replyTimeout` on the runtime's clock (the D-Bus default, 25 s)
/// fails that call with a clear error, whatever the bus sends meanwhile (nothing, or only signals).
package final class DBusConnection: Sendable {
    /// The unique name the bus gave this connection (`:1.42`).
    package let uniqueName: String
    let link: Link

    /// How long a call waits for its reply.
    package static let replyTimeout: Duration = .seconds(25)

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

    /// Connects to the bus at `address` as user `uid`, authenticates and says `Hello`, each step within
    /// `replyTimeout` on `runtime`'s clock.
    package static func connect(
        address: String, uid: UInt32, runtime: Runtime, replyTimeout: Duration = replyTimeout
    ) async throws(DBusError) -> DBusConnection {
        let fd = try open(try socket(of: address))
        let link: Link
        do {
            link = try Link(fd: fd, runtime: runtime, replyTimeout: replyTimeout)
        } catch {
            Descriptor.close(fd)
            throw .noBus("\(error)")
        }
        do throws(DBusError) {
            link.write(DBusAuth.start(uid: uid))
            let line = try await link.nextLine()
            guard DBusAuth.accepted(line) != nil else { throw .refused(line) }
            link.write(DBusAuth.begin)
            let reply = try await link.call(
                .call(
                    serial: 1, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                    interface: "org.freedesktop.DBus", member: "Hello"))
            guard let name = reply.body.first?.text else { throw .broken("Hello gave no name") }
            return DBusConnection(link: link, uniqueName: name)
        } catch {
            link.close()
            throw error
        }
    }

    private init(link: Link, uniqueName: String) {
        self.link = link
        self.uniqueName = uniqueName
    }

    deinit { link.close() }

    /// Calls `member` and returns the reply's body.
    ///
    /// - Throws: `.remote` for the peer's error, `.broken` when the connection broke or no reply came within
    ///   `replyTimeout`.
    package func call(
        destination: String, path: String, interface: String, member: String, _ body: [DBusValue]
    ) async throws(DBusError) -> [DBusValue] {
        try await link.call(
            .call(
                serial: link.nextSerial(), destination: destination, path: path, interface: interface,
                member: member, body: body)
        ).body
    }

    /// Ends the connection: a wait in progress (`nextSignal`, a call) ends with `.broken`, and so does every later
    /// call.
    package func close() { link.close() }

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
                    Descriptor.close(fd)
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
        if let code = Descriptor.writeAll(fd, bytes, socket: true) {
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

extension DBusConnection {
    /// The socket and its reading: handshake lines, then messages routed to the calls waiting for them.
    final class Link: Sendable {
        private struct State {
            var framer = DBusFramer()
            var handshaking = true
            var serial: UInt32 = 2
            var lines: [String] = []
            var lineWaiter: CheckedContinuation<String, any Error>?
            var replies: [UInt32: CheckedContinuation<DBusMessage, any Error>] = [:]
            /// Waits for the next signal one of them accepts (`nextSignal`), by number.
            var signalWaiters:
                [UInt64: (matches: @Sendable (DBusMessage) -> Bool, CheckedContinuation<DBusMessage, any Error>)] =
                    [:]
            var nextWaiter: UInt64 = 0
            /// Signals nobody waited for yet, oldest first (at most `keptSignals`): one that came between a call's
            /// reply and the wait that follows it is not lost.
            var unclaimed: [DBusMessage] = []
            var ended: DBusError?
        }

        private let channel: Channel
        private let clock: any RuntimeClock
        private let replyTimeout: Duration
        private let state = Mutex(State())
        /// The most signals kept for a wait to come.
        private static let keptSignals = 64

        init(fd: Int32, runtime: Runtime, replyTimeout: Duration) throws(SystemError) {
            UnixSocket.setNonBlocking(fd, true)
            channel = try Channel(loop: runtime.loop, fd: fd, owned: true)
            clock = runtime.clock
            self.replyTimeout = replyTimeout
            channel.onOutput { [weak self] event in
                if case .failed(let code) = event { self?.end(.broken(String(cString: strerror(code)))) }
            }
            channel.startReading { [weak self] input in self?.read(input) }
        }

        func nextSerial() -> UInt32 {
            state.withLock { state in
                defer { state.serial &+= 1 }
                return state.serial
            }
        }

        func write(_ bytes: [UInt8]) { channel.write(bytes) }

        /// The next signal `matches` accepts: the oldest one kept that it accepts, else the next to come.
        func nextSignal(where matches: @escaping @Sendable (DBusMessage) -> Bool) async throws(DBusError)
            -> DBusMessage
        {
            let id = state.withLock { state in
                defer { state.nextWaiter += 1 }
                return state.nextWaiter
            }
            do {
                return try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { continuation in
                        let now = state.withLock { state -> Result<DBusMessage, any Error>? in
                            if let kept = state.unclaimed.firstIndex(where: matches) {
                                return .success(state.unclaimed.remove(at: kept))
                            }
                            if let ended = state.ended { return .failure(ended) }
                            state.signalWaiters[id] = (matches, continuation)
                            return nil
                        }
                        if let now { continuation.resume(with: now) }
                    }
                } onCancel: { [self] in
                    state.withLock { $0.signalWaiters.removeValue(forKey: id) }?.1.resume(
                        throwing: CancellationError())
                }
            } catch let error as DBusError {
                throw error
            } catch {
                throw .broken("\(error)")
            }
        }

        /// The handshake's next line, within the reply timeout.
        func nextLine() async throws(DBusError) -> String {
            try await bounded(during: "the handshake") { continuation in
                state.withLock { state -> Result<String, any Error>? in
                    // A line read before the bus closed is still its answer (`REJECTED`, then the close).
                    if !state.lines.isEmpty { return .success(state.lines.removeFirst()) }
                    if let ended = state.ended { return .failure(ended) }
                    state.lineWaiter = continuation
                    return nil
                }
            } cancel: { [self] in
                state.withLock { state in
                    defer { state.lineWaiter = nil }
                    return state.lineWaiter
                }
            }
        }

        /// Sends `message` and waits for its reply, within the reply timeout.
        func call(_ message: DBusMessage) async throws(DBusError) -> DBusMessage {
            let serial = message.serial
            let reply = try await bounded(during: message.member ?? "a call") { continuation in
                state.withLock { state -> Result<DBusMessage, any Error>? in
                    if let ended = state.ended { return .failure(ended) }
                    state.replies[serial] = continuation
                    return nil
                }
            } cancel: { [self] in
                state.withLock { $0.replies.removeValue(forKey: serial) }
            } sending: {
                channel.write(message.bytes)
            }
            if reply.kind == .error {
                throw .remote(name: reply.errorName ?? "error", message: reply.body.first?.text ?? "")
            }
            return reply
        }

        /// Waits for what `register` arranges to be resumed with, or fails after the reply timeout on the clock.
        private func bounded<T: Sendable>(
            during what: String, _ register: (CheckedContinuation<T, any Error>) -> Result<T, any Error>?,
            cancel: @escaping @Sendable () -> CheckedContinuation<T, any Error>?, sending: () -> Void = {}
        ) async throws(DBusError) -> T {
            let timeout = replyTimeout
            let timer = Mutex<LoopTimer?>(nil)
            do {
                return try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                        if let now = register(continuation) { return continuation.resume(with: now) }
                        sending()
                        timer.withLock {
                            $0 = clock.schedule(at: clock.now.advanced(by: timeout), on: channel.loop) {
                                cancel()?.resume(throwing: DBusError.noReply("within \(timeout) (\(what))"))
                            }
                        }
                    }
                } onCancel: {
                    cancel()?.resume(throwing: CancellationError())
                }
            } catch let error as DBusError {
                timer.withLock { $0?.cancel() }
                throw error
            } catch {
                timer.withLock { $0?.cancel() }
                throw .broken("\(error)")
            }
        }

        /// What the loop read (on its thread).
        private func read(_ input: Channel.Input) {
            guard case .bytes(let bytes) = input else { return end(.broken("the bus closed the connection")) }
            var lines: [(CheckedContinuation<String, any Error>, String)] = []
            var replies: [(CheckedContinuation<DBusMessage, any Error>, DBusMessage)] = []
            var signalled: [(CheckedContinuation<DBusMessage, any Error>, DBusMessage)] = []
            var failure: DBusError?
            state.withLock { state in
                state.framer.append(bytes)
                do throws(DBusWireError) {
                    while state.handshaking, let line = try state.framer.line() {
                        // Once the server says OK the client sends BEGIN; messages follow.
                        if line.hasPrefix("OK ") { state.handshaking = false }
                        if let waiter = state.lineWaiter {
                            state.lineWaiter = nil
                            lines.append((waiter, line))
                        } else {
                            state.lines.append(line)
                        }
                    }
                    while !state.handshaking, let message = try state.framer.message() {
                        switch message.kind {
                        case .methodReturn, .error:
                            if let serial = message.replySerial, let waiter = state.replies.removeValue(forKey: serial)
                            {
                                replies.append((waiter, message))
                            }
                        case .signal: signalled += Self.route(message, in: &state)
                        case .methodCall: break
                        }
                    }
                } catch {
                    failure = .broken(error.message)
                }
            }
            for (waiter, line) in lines { waiter.resume(returning: line) }
            for (waiter, message) in replies { waiter.resume(returning: message) }
            for (waiter, message) in signalled { waiter.resume(returning: message) }
            if let failure { end(failure) }
        }

        /// The waits `message` is for (their entries removed, oldest first); kept for a wait to come when there is
        /// none (at most `keptSignals`, the oldest dropped first).
        private static func route(_ message: DBusMessage, in state: inout State) -> [(
            CheckedContinuation<DBusMessage, any Error>, DBusMessage
        )] {
            let accepted = state.signalWaiters.filter { $0.value.matches(message) }
            for id in accepted.keys { state.signalWaiters[id] = nil }
            if accepted.isEmpty {
                state.unclaimed.append(message)
                if state.unclaimed.count > keptSignals { state.unclaimed.removeFirst() }
            }
            return accepted.sorted { $0.key < $1.key }.map { ($0.value.1, message) }
        }

        /// Fails every call waiting and every later one with `error`, and closes the socket.
        private func end(_ error: DBusError) {
            let (line, replies, signals) = state.withLock { state in
                if state.ended == nil { state.ended = error }
                defer {
                    state.lineWaiter = nil
                    state.replies = [:]
                    state.signalWaiters = [:]
                }
                return (state.lineWaiter, Array(state.replies.values), state.signalWaiters.values.map(\.1))
            }
            line?.resume(throwing: error)
            for waiter in replies { waiter.resume(throwing: error) }
            for waiter in signals { waiter.resume(throwing: error) }
            channel.close()
        }

        func close() { end(.broken("the connection was closed")) }
    }
}
