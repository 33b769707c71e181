import Foundation
import Synchronization
import WeatherEngine
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds the shared daemon of a data dir, or starts one.
package enum DaemonLauncher {
    /// Why no connection to the daemon was made.
    package enum ConnectError: Error, Sendable, Equatable, CustomStringConvertible {
        /// Nobody listens on the socket (no file, or a stale one): a daemon may be started.
        case noDaemon(path: String)
        /// The socket could not be reached for another reason (permissions, path too long…).
        case failed(SocketError)
        /// Starting a daemon failed.
        case startFailed(String)
        /// A daemon was started but none listened, with no process left that could, or within the guard.
        case timedOut(path: String, waited: Duration)
        /// The daemon started lost the data dir to a live weatherd that serves another socket, or none.
        case heldElsewhere(path: String, pid: Int32, socket: String?)

        package var description: String {
            switch self {
            case .noDaemon(let path): "no weatherd daemon is listening on \(path)"
            case .failed(let error): "cannot reach the weatherd daemon: \(error)"
            case .startFailed(let message): "cannot start a weatherd daemon: \(message)"
            case .timedOut(let path, let waited):
                "no weatherd daemon was listening on \(path) after \(waited); "
                    + "its log (weatherd.log in the data dir) may say why"
            case .heldElsewhere(let path, let pid, let socket?):
                "the data dir is in use by the weatherd daemon with pid \(pid), which listens on \(socket), not "
                    + "\(path); give every client and the daemon the same --socket"
            case .heldElsewhere(_, let pid, nil):
                "the data dir is in use by weatherd (pid \(pid)), which serves no socket (weatherd --standalone "
                    + "or a command); stop it, or let the shared daemon serve every client"
            }
        }
    }

    /// Connects to the daemon listening on `path`.
    ///
    /// - Returns: the connected socket (close-on-exec, blocking).
    /// - Throws: `.noDaemon` when nothing listens there (`ENOENT`, `ECONNREFUSED`), `.failed` otherwise.
    package static func connect(path: String) throws(ConnectError) -> Int32 {
        do throws(SocketError) {
            return try UnixSocket.connect(path)
        } catch {
            if error.errno == ENOENT || error.errno == ECONNREFUSED { throw .noDaemon(path: path) }
            throw .failed(error)
        }
    }

    /// Connects to the daemon on `path`, calling `start` once when there is none, then retrying with short
    /// pauses on `clock` (10 ms, growing to 100 ms) for as long as a daemon may still come up (see `Launch`).
    ///
    /// - Throws: see `Launch.step`.
    package static func connectOrStart(
        path: String, lockPath: String? = nil, grace: Duration = .seconds(1), limit: Duration = .seconds(300),
        clock: any RuntimeClock, loop: EventLoop, start: @escaping @Sendable () throws -> ChildProcess?
    ) async throws(ConnectError) -> Int32 {
        let outcome = Promise<Result<Int32, ConnectError>>()
        let launch = Launch(
            path: path, lockPath: lockPath, grace: grace, limit: limit, clock: clock, loop: loop, start: start)
        launch.run { outcome.fulfill($0) }
        return try await outcome.wait().get()
    }

    /// The search for a daemon, step by step on an event loop: connect; when nothing listens, start one and try
    /// again after a pause, for as long as a daemon may still come up.
    ///
    /// Several clients may start a daemon at the same moment; only one takes the data dir's lock and the
    /// others exit, and every client connects to the winner. So the wait follows processes, not a stopwatch:
    /// it goes on while the process `start` returned runs, and, once that one has exited (it lost the race),
    /// while the process named in `lockPath` (the lock's holder) runs and names `path` as its socket. A slow
    /// start on a busy machine is waited for; a daemon that died, or a data dir held by a weatherd that serves
    /// another socket or none, is reported at once. When the started daemon exited and so did the lock's holder
    /// (a daemon at its idle exit), `start` is called again, up to three starts in all.
    ///
    /// - `lockPath`: the data dir's `LOCK`, whose holder is waited for once the started process has exited.
    /// - `grace`: how long to go on trying when no process is left to follow (or `start` returned none).
    /// - `limit`: a guard for a daemon that runs but never listens; not a verdict on a slow start.
    ///
    /// It fails with `.failed` for an error other than "no daemon", `.startFailed` when `start` throws or the
    /// started daemon exited with nobody listening, `.heldElsewhere` when a weatherd that will not listen on
    /// `path` holds the data dir, `.timedOut` when the guard or the grace ran out.
    package final class Launch: Sendable {
        private struct State {
            var watched: DaemonWatch
            var starts = 0
            var began: RuntimeInstant?
            var nobodyLeftSince: Duration?
            var pause = Duration.milliseconds(10)
        }

        private let path: String
        private let grace: Duration
        private let limit: Duration
        private let clock: any RuntimeClock
        private let loop: EventLoop
        private let start: @Sendable () throws -> ChildProcess?
        private let state: Mutex<State>
        /// A socket to try before `path` (the one the data dir's lock names), once.
        private let tryingFirst: String?

        /// - Parameter tryingFirst: a socket to connect to before `path`, where a daemon of the data dir may
        ///   listen already; nobody answering there is no error.
        package init(
            path: String, lockPath: String?, grace: Duration, limit: Duration, clock: any RuntimeClock,
            loop: EventLoop, tryingFirst: String? = nil, start: @escaping @Sendable () throws -> ChildProcess?
        ) {
            self.tryingFirst = tryingFirst
            self.path = path
            self.grace = grace
            self.limit = limit
            self.clock = clock
            self.loop = loop
            self.start = start
            state = Mutex(State(watched: DaemonWatch(lockPath: lockPath, socket: path)))
        }

        /// Runs the search on the loop; `done` gets the connected socket (close-on-exec, non-blocking) or the
        /// failure, on the loop's thread.
        package func run(_ done: @escaping @Sendable (Result<Int32, ConnectError>) -> Void) {
            loop.execute { [self] in next(done) }
        }

        private func next(_ done: @escaping @Sendable (Result<Int32, ConnectError>) -> Void) {
            switch step() {
            case .success(let fd?): done(.success(fd))
            case .failure(let error): done(.failure(error))
            case .success(nil):
                let pause = state.withLock { state -> Duration in
                    defer { state.pause = min(state.pause * 2, .milliseconds(100)) }
                    return state.pause
                }
                _ = clock.schedule(at: clock.now.advanced(by: pause), on: loop) { [self] in next(done) }
            }
        }

        /// One attempt: the socket when a daemon listens, nil to try again after a pause, or why it cannot be.
        private func step() -> Result<Int32?, ConnectError> {
            if let tryingFirst, state.withLock({ $0.began == nil }), let fd = try? connect(path: tryingFirst) {
                return .success(fd)
            }
            do throws(ConnectError) {
                return .success(try connect(path: path))
            } catch {
                guard case .noDaemon = error else { return .failure(error) }
            }
            return state.withLock { state -> Result<Int32?, ConnectError> in
                func startOne() -> ConnectError? {
                    state.starts += 1
                    do {
                        state.watched.follow(try start())
                        return nil
                    } catch {
                        return .startFailed("\(error)")
                    }
                }
                guard let began = state.began else {
                    state.began = clock.now
                    return startOne().map { .failure($0) } ?? .success(nil)
                }
                let waited = began.duration(to: clock.now)
                guard waited < limit else { return .failure(.timedOut(path: path, waited: limit)) }
                switch state.watched.outlook() {
                case .starting: state.nobodyLeftSince = nil
                case .heldElsewhere(let pid, let socket):
                    return .failure(.heldElsewhere(path: path, pid: pid, socket: socket))
                case .gone where state.watched.childStatus != nil && state.starts < 3:
                    // The daemon it started lost the lock to one that has exited since (say, at its idle exit).
                    if let error = startOne() { return .failure(error) }
                case .gone:
                    let since = state.nobodyLeftSince ?? waited
                    state.nobodyLeftSince = since
                    guard waited - since < grace else {
                        if let status = state.watched.childStatus {
                            return .failure(
                                .startFailed(
                                    "the daemon it started exited (\(status)) and none is listening on \(path); "
                                        + "its log (weatherd.log in the data dir) may say why"))
                        }
                        return .failure(.timedOut(path: path, waited: waited))
                    }
                }
                return .success(nil)
            }
        }
    }

    /// Starts `executable` with `arguments` and `environment` as a detached process: in a session of its own
    /// (`setsid`: no controlling terminal, untouched by the terminal's signals), with standard input, output
    /// and error on `/dev/null`, default signal handling, and no descriptor of this process but those three.
    ///
    /// The child outlives this process, which reaps it only if it exits while `connectOrStart` waits for it
    /// (a daemon that lost the race for the data dir); once this process exits the child is reparented to
    /// init (or the nearest subreaper), which reaps it.
    ///
    /// - Throws: `SystemError` when `posix_spawn` fails.
    package static func spawnDetached(
        executable: String, arguments: [String], environment: [String: String]
    ) throws(SystemError) -> ChildProcess {
        var options = ChildProcess.Options()
        options.newSession = true
        return try ChildProcess.spawn(executable, arguments: arguments, environment: environment, options: options)
    }
}
