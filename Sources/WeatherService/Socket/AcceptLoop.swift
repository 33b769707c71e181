import Synchronization
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The thread that accepts a listening socket's connections, shared by `UnixListener` and `TCPListener`.
///
/// It polls the socket and a wake-up socket, so `close` ends it at once. Accepted descriptors are blocking,
/// close-on-exec and never raise SIGPIPE. The listening descriptor is closed with the wake-up pair: by the
/// accept thread when it runs, else by `close`.
final class AcceptLoop: Sendable {
    /// The listening descriptor (non-blocking).
    let fd: Int32
    /// What errors name: the socket's path or address.
    private let label: String?
    private let threadName: String
    /// A socket pair whose first end `close` writes to, waking the accept thread's `poll`.
    private let wake: (signal: Int32, wait: Int32)
    private let state = Mutex((started: false, running: false, closed: false))

    /// Takes `fd`, a listening socket, over: made non-blocking, closed with the loop.
    ///
    /// - Throws: `SocketError` when the wake-up pair cannot be made; `fd` is then left to the caller.
    init(fd: Int32, label: String?, threadName: String) throws(SocketError) {
        wake = try UnixSocket.pair()
        UnixSocket.setNonBlocking(fd, true)
        self.fd = fd
        self.label = label
        self.threadName = threadName
    }

    /// Starts the accept thread: each accepted connection goes to `onConnection`, which owns (and closes) it.
    /// `onEnd` is told once when the thread ends: nil after `close`, else the error that stopped accepting.
    /// Calls after the first, or after `close`, do nothing.
    func start(onConnection: @escaping @Sendable (Int32) -> Void, onEnd: @escaping @Sendable (SocketError?) -> Void) {
        let begin = state.withLock { state -> Bool in
            guard !state.started, !state.closed else { return false }
            state.started = true
            state.running = true
            return true
        }
        guard begin else { return }
        startThread(named: threadName) { [self] in
            let error = acceptLoop(onConnection)
            let closeNow = state.withLock { state -> Bool in
                state.running = false
                return state.closed
            }
            if closeNow { closeDescriptors() }
            onEnd(error)
        }
    }

    /// Stops accepting: the accept thread ends promptly; `first` runs on the first call only, before the
    /// descriptors are closed (by the accept thread when it runs). Later calls do nothing.
    func close(_ first: () -> Void = {}) {
        let (isFirst, running) = state.withLock { state -> (Bool, Bool) in
            guard !state.closed else { return (false, false) }
            state.closed = true
            if state.running {
                // Under the lock: the accept thread closes `wake` only after it has taken the lock itself.
                var byte: UInt8 = 1
                _ = send(wake.signal, &byte, 1, UnixSocket.sendFlags)
            }
            return (true, state.running)
        }
        guard isFirst else { return }
        first()
        if !running { closeDescriptors() }
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
                return .system("poll", label, errno: errno)
            }
            if fds[1].revents != 0 || state.withLock({ $0.closed }) { return nil }
            guard fds[0].revents != 0 else { continue }
            let client = accept(fd, nil, nil)
            guard client >= 0 else {
                switch errno {
                case EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED, EPROTO: continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of descriptors or memory: the pending connection waits in the backlog; try again soon
                    // instead of spinning on a socket that stays readable.
                    usleep(100_000)
                    continue
                default: return .system("accept", label, errno: errno)
                }
            }
            UnixSocket.setCloseOnExec(client)
            UnixSocket.setNonBlocking(client, false)
            UnixSocket.preventSIGPIPE(client)
            onConnection(client)
        }
    }
}
