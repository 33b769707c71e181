import Foundation
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
    /// sleeps (10 ms, growing to 100 ms) for as long as a daemon may still come up.
    ///
    /// Several clients may start a daemon at the same moment; only one takes the data dir's lock and the
    /// others exit, and every client connects to the winner. So the wait follows processes, not a stopwatch:
    /// it goes on while the process `start` returned runs, and, once that one has exited (it lost the race),
    /// while the process named in `lockPath` (the lock's holder) runs and names `path` as its socket. A slow
    /// start on a busy machine is waited for; a daemon that died, or a data dir held by a weatherd that serves
    /// another socket or none, is reported at once. When the started daemon exited and so did the lock's holder
    /// (a daemon at its idle exit), `start` is called again, up to three starts in all.
    ///
    /// - Parameters:
    ///   - lockPath: the data dir's `LOCK`, whose holder is waited for once the started process has exited.
    ///   - grace: how long to go on trying when no process is left to follow (or `start` returned none).
    ///   - limit: a guard for a daemon that runs but never listens; not a verdict on a slow start.
    /// - Throws: `.failed` for an error other than "no daemon", `.startFailed` when `start` throws or the
    ///   started daemon exited with nobody listening, `.heldElsewhere` when a weatherd that will not listen on
    ///   `path` holds the data dir, `.timedOut` when the guard or the grace ran out.
    package static func connectOrStart(
        path: String, lockPath: String? = nil, grace: Duration = .seconds(1), limit: Duration = .seconds(300),
        start: @Sendable () throws -> Int32?
    ) async throws(ConnectError) -> Int32 {
        do throws(ConnectError) {
            return try connect(path: path)
        } catch {
            guard case .noDaemon = error else { throw error }
        }
        var watched = DaemonWatch(lockPath: lockPath, socket: path)
        var starts = 0
        func startOne() throws(ConnectError) {
            starts += 1
            do {
                watched.follow(try start())
            } catch {
                throw .startFailed("\(error)")
            }
        }
        try startOne()
        let clock = SystemClock()
        let started = monotonicNanoseconds()
        var nobodyLeftSince: Duration? = nil
        var pause = Duration.milliseconds(10)
        while true {
            do throws(ConnectError) {
                return try connect(path: path)
            } catch {
                guard case .noDaemon = error else { throw error }
            }
            let waited = Duration.nanoseconds(Int64(monotonicNanoseconds() - started))
            guard waited < limit else { throw .timedOut(path: path, waited: limit) }
            switch watched.outlook() {
            case .starting: nobodyLeftSince = nil
            case .heldElsewhere(let pid, let socket): throw .heldElsewhere(path: path, pid: pid, socket: socket)
            case .gone where watched.childStatus != nil && starts < 3:
                // The daemon it started lost the lock to one that has exited since (say, at its idle exit).
                try startOne()
            case .gone:
                let since = nobodyLeftSince ?? waited
                nobodyLeftSince = since
                guard waited - since < grace else {
                    if let status = watched.childStatus {
                        throw .startFailed(
                            "the daemon it started exited (\(status)) and none is listening on \(path); "
                                + "its log (weatherd.log in the data dir) may say why")
                    }
                    throw .timedOut(path: path, waited: waited)
                }
            }
            try? await clock.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(100))
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
    /// - Returns: the child's pid.
    /// - Throws: `SocketError` when `posix_spawn` fails.
    package static func spawnDetached(
        executable: String, arguments: [String], environment: [String: String]
    ) throws(SocketError) -> Int32 {
        #if canImport(Glibc)
            var attributes = posix_spawnattr_t()
            var actions = posix_spawn_file_actions_t()
            // POSIX_SPAWN_SETSID (glibc 2.26) is hidden behind _GNU_SOURCE; this is its value.
            let setsid: Int32 = 0x80
            let flags = setsid | Int32(POSIX_SPAWN_SETSIGDEF) | Int32(POSIX_SPAWN_SETSIGMASK)
        #else
            var attributes: posix_spawnattr_t?
            var actions: posix_spawn_file_actions_t?
            let flags =
                Int32(POSIX_SPAWN_SETSID) | Int32(POSIX_SPAWN_SETSIGDEF) | Int32(POSIX_SPAWN_SETSIGMASK)
                | Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        posix_spawnattr_init(&attributes)
        posix_spawn_file_actions_init(&actions)
        defer {
            posix_spawnattr_destroy(&attributes)
            posix_spawn_file_actions_destroy(&actions)
        }
        var code = posix_spawnattr_setflags(&attributes, Int16(truncatingIfNeeded: flags))
        var defaults = sigset_t()
        sigemptyset(&defaults)
        // SIGPIPE is ignored here, and ignored signals survive exec: give the child the defaults back.
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP] { sigaddset(&defaults, signal) }
        if code == 0 { code = posix_spawnattr_setsigdefault(&attributes, &defaults) }
        var none = sigset_t()
        sigemptyset(&none)
        if code == 0 { code = posix_spawnattr_setsigmask(&attributes, &none) }
        for (fd, mode) in [(Int32(0), O_RDONLY), (1, O_WRONLY), (2, O_WRONLY)] where code == 0 {
            code = posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", mode, 0)
        }
        #if canImport(Glibc)
            if code == 0, let closeFrom = addCloseFrom { code = closeFrom(&actions, 3) }
        #endif
        guard code == 0 else { throw .system("posix_spawn setup for", executable, errno: code) }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        code = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard code == 0 else { throw .system("posix_spawn", executable, errno: code) }
        return pid
    }

    #if canImport(Glibc)
        /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34), looked up at run time because it is hidden
        /// behind _GNU_SOURCE; without it, the child inherits only descriptors that lack close-on-exec, and
        /// weatherd opens every descriptor close-on-exec.
        private static let addCloseFrom: AddCloseFrom? = {
            guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
            return unsafeBitCast(symbol, to: AddCloseFrom.self)
        }()

        private typealias AddCloseFrom =
            @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    #endif
}
