import Synchronization
import WeatherEngine
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A listening TCP socket (the HTTP face, /metrics among it), accepted on the event loop.
///
/// Like `UnixListener` (`AcceptLoop`): accepted descriptors are non-blocking and close-on-exec.
package final class TCPListener: Sendable {
    /// The address and the port actually bound (the one the system chose for port 0).
    package let endpoint: MetricsEndpoint
    private let accepting: AcceptLoop

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
            accepting = AcceptLoop(fd: fd, label: "\(bound)")
        } catch {
            UnixSocket.closeDescriptor(fd)
            throw error
        }
        self.endpoint = bound
    }

    /// Binds `fd` to `endpoint`; returns the port bound.
    private static func bindAddress(_ fd: Int32, _ endpoint: MetricsEndpoint) throws(SocketError) -> Int {
        guard var (storage, length) = socketAddress(endpoint) else {
            throw SocketError("--http-listen: \(endpoint.host) is not an IP address")
        }
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

    /// `endpoint` as a socket address and its length; nil when its host is not a numeric address.
    static func socketAddress(_ endpoint: MetricsEndpoint) -> (sockaddr_storage, socklen_t)? {
        var storage = sockaddr_storage()
        let length: socklen_t
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
        return parsed == 1 ? (storage, length) : nil
    }

    /// Starts accepting on `runtime`'s loop: each accepted connection goes to `onConnection` (on the loop's
    /// thread), which owns (and closes) it. `onEnd` is told once when accepting stops: nil after `close`, else
    /// the error that stopped it.
    package func start(
        on runtime: Runtime, onConnection: @escaping @Sendable (Int32) -> Void,
        onEnd: @escaping @Sendable (SocketError?) -> Void
    ) {
        accepting.start(on: runtime, onConnection: onConnection, onEnd: onEnd)
    }

    /// Stops accepting and closes the socket. Later calls do nothing.
    package func close() { accepting.close() }
}
