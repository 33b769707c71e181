import Synchronization
import WeatherEngine
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A listening TCP socket (the metrics endpoint) and the thread that accepts its connections.
///
/// Like `UnixListener`: accepting runs on a thread of its own that polls the socket and a wake-up socket, so
/// `close` ends it at once; accepted descriptors are blocking and close-on-exec.
package final class TCPListener: Sendable {
    /// The listening descriptor.
    private let fd: Int32
    /// The address and the port actually bound (the one the system chose for port 0).
    package let endpoint: MetricsEndpoint
    /// A socket pair whose first end `close` writes to, waking the accept thread's `poll`.
    private let wake: (signal: Int32, wait: Int32)
    private let state = Mutex((started: false, running: false, closed: false))

    /// Binds and listens on `endpoint` (with `SO_REUSEADDR`, so a restart does not wait for old connections).
    ///
    /// - Throws: `SocketError` when the address is in use, not this host's, or not allowed.
    package init(_ endpoint: MetricsEndpoint, backlog: Int32 = 128) throws(SocketError) {
        let family = endpoint.isIPv6 ? AF_INET6 : AF_INET
        #if canImport(Glibc)
            let fd = socket(family, UnixSocket.streamType | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            let fd = socket(family, UnixSocket.streamType, 0)
        #endif
        guard fd >= 0 else { throw .system("socket", "\(endpoint)", errno: errno) }
        UnixSocket.setCloseOnExec(fd)
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        var bound = endpoint
        do throws(SocketError) {
            bound.port = try Self.bindAddress(fd, endpoint)
            guard listen(fd, backlog) == 0 else { throw .system("listen", "\(endpoint)", errno: errno) }
            wake = try UnixSocket.pair()
        } catch {
            UnixSocket.closeDescriptor(fd)
            throw error
        }
        UnixSocket.setNonBlocking(fd, true)
        self.fd = fd
        self.endpoint = bound
    }

    /// Binds `fd` to `endpoint`; returns the port bound.
    private static func bindAddress(_ fd: Int32, _ endpoint: MetricsEndpoint) throws(SocketError) -> Int {
        var storage = sockaddr_storage()
        var length: socklen_t
        let parsed: Int32
        if endpoint.isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(endpoint.port).bigEndian)
            parsed = inet_pton(AF_INET6, endpoint.host, &address.sin6_addr)
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in6.self) }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(endpoint.port).bigEndian)
            parsed = inet_pton(AF_INET, endpoint.host, &address.sin_addr)
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in.self) }
        }
        guard parsed == 1 else { throw SocketError("--metrics-listen: \(endpoint.host) is not an IP address") }
        let result = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard result == 0 else { throw .system("bind", "\(endpoint)", errno: errno) }
        length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let port =
            endpoint.isIPv6
            ? withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in6.self).sin6_port }
            : withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in.self).sin_port }
        return Int(UInt16(bigEndian: port))
    }

    /// Starts the accept thread: each accepted connection goes to `onConnection`, which owns (and closes) it.
    /// `onEnd` is told once when the thread ends: nil after `close`, else the error that stopped accepting.
    package func start(
        onConnection: @escaping @Sendable (Int32) -> Void, onEnd: @escaping @Sendable (SocketError?) -> Void
    ) {
        let begin = state.withLock { state -> Bool in
            guard !state.started, !state.closed else { return false }
            state.started = true
            state.running = true
            return true
        }
        guard begin else { return }
        startThread(named: "weatherd-metrics-accept") { [self] in
            let error = acceptLoop(onConnection)
            let closeNow = state.withLock { state -> Bool in
                state.running = false
                return state.closed
            }
            if closeNow { closeDescriptors() }
            onEnd(error)
        }
    }

    /// Stops accepting and closes the socket (the accept thread closes it when it runs). Later calls do nothing.
    package func close() {
        let (first, running) = state.withLock { state -> (Bool, Bool) in
            guard !state.closed else { return (false, false) }
            state.closed = true
            if state.running {
                // Under the lock: the accept thread closes `wake` only after it has taken the lock itself.
                var byte: UInt8 = 1
                _ = send(wake.signal, &byte, 1, UnixSocket.sendFlags)
            }
            return (true, state.running)
        }
        if first, !running { closeDescriptors() }
    }

    private func closeDescriptors() {
        for descriptor in [fd, wake.signal, wake.wait] { UnixSocket.closeDescriptor(descriptor) }
    }

    /// Accepts until woken by `close`; returns the error that stopped it otherwise.
    private func acceptLoop(_ onConnection: @Sendable (Int32) -> Void) -> SocketError? {
        var fds = [
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.wait, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            if poll(&fds, 2, -1) < 0 {
                if errno == EINTR { continue }
                return .system("poll", "\(endpoint)", errno: errno)
            }
            if fds[1].revents != 0 || state.withLock({ $0.closed }) { return nil }
            guard fds[0].revents != 0 else { continue }
            let client = accept(fd, nil, nil)
            guard client >= 0 else {
                switch errno {
                case EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED, EPROTO: continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of descriptors or memory: the connection waits in the backlog; try again soon instead of
                    // spinning on a socket that stays readable.
                    usleep(100_000)
                    continue
                default: return .system("accept", "\(endpoint)", errno: errno)
                }
            }
            UnixSocket.setCloseOnExec(client)
            UnixSocket.setNonBlocking(client, false)
            UnixSocket.preventSIGPIPE(client)
            onConnection(client)
        }
    }
}
