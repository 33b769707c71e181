import EventLog
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The processes a client that started a daemon may wait for: the one it started, then the data dir
/// lock's holder (the daemon that won, when several clients started one at the same moment).
struct DaemonWatch {
    /// What the watched processes say about a daemon coming to listen on the client's socket.
    enum Outlook: Equatable {
        /// The started process, or a daemon holding the lock for this socket, still runs: wait.
        case starting
        /// Nothing that could listen runs.
        case gone
        /// The lock is held by a live process that will not listen on this socket: a daemon on another
        /// socket (`socket`), or a weatherd serving none (nil: `--standalone` or a command).
        case heldElsewhere(pid: Int32, socket: String?)
    }

    /// The data dir's `LOCK`, which names its holder's pid and the socket it listens on.
    let lockPath: String?
    /// The socket the client waits on.
    let socket: String
    /// The process the client started; nil once it has exited (and been reaped) or when none was.
    private var child: ChildProcess?
    /// How the started process ended, once it has.
    private(set) var childStatus: String?

    init(lockPath: String?, socket: String) {
        self.lockPath = lockPath
        self.socket = socket
    }

    /// Follows `process`, just started (nil: none to follow).
    mutating func follow(_ process: ChildProcess?) {
        child = process
        childStatus = nil
    }

    /// Whether a process that could still come to listen runs: the started one, else the lock's holder.
    mutating func outlook() -> Outlook {
        if let process = child {
            guard let status = process.reapIfExited() else { return .starting }
            child = nil
            childStatus = status.description
        }
        guard let holder = lockPath.flatMap(LockHolder.read(lockPath:)), kill(holder.pid, 0) == 0 || errno == EPERM
        else { return .gone }
        return holder.socket == socket ? .starting : .heldElsewhere(pid: holder.pid, socket: holder.socket)
    }
}
