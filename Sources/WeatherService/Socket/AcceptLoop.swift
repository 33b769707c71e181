import Synchronization
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A listening socket served by the event loop, shared by `UnixListener` and `TCPListener`: its readiness
/// accepts every waiting connection. Accepted descriptors are non-blocking, close-on-exec and never raise
/// SIGPIPE; each goes to the owner's handler, which owns (and closes) it.
///
/// Out of descriptors or memory (`EMFILE`, `ENOBUFS`…), it stops watching for 100 ms of the runtime's clock
/// instead of spinning on a socket that stays readable; the pending connection waits in the backlog.
final class AcceptLoop: Sendable {
    private struct State {
        var registration: Registration?
        var runtime: Runtime?
        var onConnection: (@Sendable (Int32) -> Void)?
        var onEnd: (@Sendable (SocketError?) -> Void)?
        var closed = false
        var onClose: (@Sendable () -> Void)?
    }

    /// The listening descriptor (non-blocking).
    let fd: Int32
    /// What errors name: the socket's path or address.
    private let label: String?
    private let state = Mutex(State())

    /// Takes `fd`, a listening socket, over: made non-blocking, closed with the loop.
    init(fd: Int32, label: String?) {
        UnixSocket.setNonBlocking(fd, true)
        self.fd = fd
        self.label = label
    }

    /// Starts accepting on `runtime`'s loop: each accepted connection goes to `onConnection` (on the loop's
    /// thread). `onEnd` is told once when accepting stops: nil after `close`, else the error that stopped it.
    /// Calls after the first, or after `close`, do nothing.
    func start(
        on runtime: Runtime, onConnection: @escaping @Sendable (Int32) -> Void,
        onEnd: @escaping @Sendable (SocketError?) -> Void
    ) {
        let go = state.withLock { state -> Bool in
            guard state.runtime == nil, !state.closed else { return false }
            state.runtime = runtime
            state.onConnection = onConnection
            state.onEnd = onEnd
            return true
        }
        guard go else { return }
        do {
            let registration = try runtime.loop.register(fd, interest: .read) { [self] _ in acceptAll() }
            state.withLock { $0.registration = registration }
        } catch {
            stop(with: .system("epoll_ctl", label, errno: error.errno))
        }
    }

    /// Stops accepting and closes the socket (on the loop's thread); `first` runs on the first call only, before
    /// the descriptor is closed. Later calls do nothing.
    func close(_ first: @escaping @Sendable () -> Void = {}) {
        let (isFirst, registration, onEnd) = state.withLock {
            state -> (Bool, Registration?, (@Sendable (SocketError?) -> Void)?) in
            guard !state.closed else { return (false, nil, nil) }
            state.closed = true
            defer { state.onEnd = nil }
            return (true, state.registration, state.onEnd)
        }
        guard isFirst else { return }
        first()
        if let registration {
            registration.closeDescriptor { onEnd?(nil) }
        } else {
            UnixSocket.closeDescriptor(fd)
            onEnd?(nil)
        }
    }

    private func stop(with error: SocketError) {
        let onEnd = state.withLock { state -> (@Sendable (SocketError?) -> Void)? in
            state.registration?.cancel()
            defer { state.onEnd = nil }
            return state.onEnd
        }
        onEnd?(error)
    }

    /// Accepts every connection waiting (on the loop's thread).
    private func acceptAll() {
        guard
            let (onConnection, runtime) = state.withLock({ state in
                state.closed ? nil : state.onConnection.flatMap { handler in state.runtime.map { (handler, $0) } }
            })
        else { return }
        while true {
            let client = accept(fd, nil, nil)
            guard client >= 0 else {
                switch errno {
                case EAGAIN, EWOULDBLOCK: return
                case EINTR, ECONNABORTED, EPROTO: continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    backOff(runtime)
                    return
                default: return stop(with: .system("accept", label, errno: errno))
                }
            }
            UnixSocket.setCloseOnExec(client)
            UnixSocket.setNonBlocking(client, true)
            UnixSocket.preventSIGPIPE(client)
            onConnection(client)
        }
    }

    /// Stops watching for 100 ms, then watches again.
    private func backOff(_ runtime: Runtime) {
        let registration = state.withLock { $0.registration }
        registration?.setInterest([])
        _ = runtime.clock.schedule(at: runtime.clock.now.advanced(by: .milliseconds(100)), on: runtime.loop) {
            registration?.setInterest(.read)
        }
    }
}
