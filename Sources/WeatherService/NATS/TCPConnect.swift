import WeatherEngine
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens a TCP connection without blocking a thread: a non-blocking `connect`, then the event loop says when
/// it is done (the socket becomes writable) or the deadline passes on the runtime's clock.
enum TCPConnect {
    /// A connected, non-blocking, close-on-exec socket to `endpoint`.
    ///
    /// - Throws: `NATSError.unreachable` (refused, no route, the deadline passed).
    static func connect(to endpoint: MetricsEndpoint, runtime: Runtime, timeout: Duration) async throws(NATSError)
        -> Int32
    {
        guard let (storage, length) = TCPListener.socketAddress(endpoint) else {
            throw .unreachable("\(endpoint)", "not a numeric address")
        }
        var address = storage
        #if canImport(Glibc)
            let fd = socket(
                endpoint.isIPv6 ? AF_INET6 : AF_INET,
                UnixSocket.streamType | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        #else
            let fd = socket(endpoint.isIPv6 ? AF_INET6 : AF_INET, UnixSocket.streamType, 0)
            if fd >= 0 { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        #endif
        guard fd >= 0 else { throw .unreachable("\(endpoint)", String(cString: strerror(errno))) }
        UnixSocket.setCloseOnExec(fd)
        UnixSocket.preventSIGPIPE(fd)
        var on: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemConnect(fd, $0, length) }
        }
        if result == 0 { return fd }
        guard errno == EINPROGRESS else {
            let code = errno
            Descriptor.close(fd)
            throw .unreachable("\(endpoint)", String(cString: strerror(code)))
        }
        let done = Promise<Int32>()
        let registration: Registration
        do {
            registration = try runtime.loop.register(fd, interest: .write) { _ in
                var code: Int32 = 0
                var size = socklen_t(MemoryLayout<Int32>.size)
                if getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &size) != 0 { code = errno }
                done.fulfill(code)
            }
        } catch {
            Descriptor.close(fd)
            throw .unreachable("\(endpoint)", "\(error)")
        }
        let timer = runtime.clock.schedule(at: runtime.clock.deadline(after: timeout), on: runtime.loop) {
            done.fulfill(ETIMEDOUT)
        }
        let code = await done.wait()
        timer.cancel()
        registration.cancel()
        guard code == 0 else {
            Descriptor.close(fd)
            throw .unreachable("\(endpoint)", String(cString: strerror(code)))
        }
        return fd
    }
}

#if canImport(Glibc)
    private let systemConnect = Glibc.connect
#elseif canImport(Darwin)
    private let systemConnect = Darwin.connect
#endif
