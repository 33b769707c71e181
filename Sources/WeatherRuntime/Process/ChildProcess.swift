import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A process this one started, followed by a handle that cannot be reused: on Linux a pidfd (`pidfd_open`), which
/// goes on naming the child after its pid has been reaped and given to another process; so a wait or a signal
/// never reaches a stranger. Its exit is seen on the event loop (the pidfd becomes readable), never by polling a
/// bare pid, and it is reaped exactly once, by this object.
///
/// Without pidfds (Darwin, or a kernel before 5.3) it falls back to `waitpid` on the pid, which is safe only while
/// this object alone reaps it (weatherd reaps its children nowhere else).
package final class ChildProcess: Sendable {
    /// How the process is started.
    package struct Options: Sendable {
        /// Each descriptor of the child's standard input, output and error: one of this process's (duplicated in),
        /// or nil for `/dev/null`.
        package var standardInput: Int32?
        package var standardOutput: Int32?
        package var standardError: Int32?
        /// In a session of its own (`setsid`: no controlling terminal, untouched by the terminal's signals).
        package var newSession = false
        /// In a process group of its own (so a signal can reach what it starts).
        package var newProcessGroup = false
        /// The directory it starts in; nil: this process's.
        package var workingDirectory: String?
        /// Descriptors of this process the child gets as 3, 4, … in order (a browser's `--remote-debugging-pipe`
        /// reads 3 and writes 4). Each must be above 2 + their count, so that none is overwritten before it is
        /// duplicated.
        package var inherited: [Int32] = []

        package init() {}
    }

    /// How the process ended.
    package enum Status: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)
        /// Reaped elsewhere: how it ended is unknown.
        case unknown

        package var description: String {
            switch self {
            case .exited(let code): "exit status \(code)"
            case .signalled(let signal): "signal \(signal)"
            case .unknown: "not waitable"
            }
        }
    }

    /// The child's process id (for messages; never for a wait or a signal once it may have been reaped).
    package let pid: Int32
    /// The pidfd, or -1 where there is none.
    private let handle: Int32
    private let status = Mutex<Status?>(nil)

    private init(pid: Int32) {
        self.pid = pid
        handle = Pidfd.open(pid)
    }

    deinit {
        if handle >= 0 { Descriptor.close(handle) }
    }

    /// Starts `executable` with `arguments` and exactly `environment`, with default signal handling and an empty
    /// signal mask, and no descriptor of this process but those `options` names.
    ///
    /// - Throws: `SystemError` when `posix_spawn` fails.
    package static func spawn(
        _ executable: String, arguments: [String], environment: [String: String], options: Options = Options()
    ) throws(SystemError) -> ChildProcess {
        #if canImport(Glibc)
            var attributes = posix_spawnattr_t()
            var actions = posix_spawn_file_actions_t()
            // POSIX_SPAWN_SETSID (glibc 2.26) is hidden behind _GNU_SOURCE; this is its value.
            let setsid: Int32 = 0x80
        #else
            var attributes: posix_spawnattr_t?
            var actions: posix_spawn_file_actions_t?
            let setsid = Int32(POSIX_SPAWN_SETSID)
        #endif
        posix_spawnattr_init(&attributes)
        posix_spawn_file_actions_init(&actions)
        defer {
            posix_spawnattr_destroy(&attributes)
            posix_spawn_file_actions_destroy(&actions)
        }
        var flags = Int32(POSIX_SPAWN_SETSIGDEF) | Int32(POSIX_SPAWN_SETSIGMASK)
        if options.newSession { flags |= setsid }
        if options.newProcessGroup { flags |= Int32(POSIX_SPAWN_SETPGROUP) }
        #if canImport(Darwin)
            flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        var code = posix_spawnattr_setflags(&attributes, Int16(truncatingIfNeeded: flags))
        if code == 0, options.newProcessGroup { code = posix_spawnattr_setpgroup(&attributes, 0) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        // weatherd ignores SIGPIPE and blocks SIGTERM and SIGINT (its event loop reads them); ignored signals and
        // the mask survive exec: give the child the defaults back.
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGCHLD] { sigaddset(&defaults, signal) }
        if code == 0 { code = posix_spawnattr_setsigdefault(&attributes, &defaults) }
        var none = sigset_t()
        sigemptyset(&none)
        if code == 0 { code = posix_spawnattr_setsigmask(&attributes, &none) }
        let streams = [
            (Int32(0), options.standardInput, O_RDONLY), (1, options.standardOutput, O_WRONLY),
            (2, options.standardError, O_WRONLY),
        ]
        for (target, source, mode) in streams where code == 0 {
            if let source {
                code = posix_spawn_file_actions_adddup2(&actions, source, target)
            } else {
                code = posix_spawn_file_actions_addopen(&actions, target, "/dev/null", mode, 0)
            }
        }
        let firstFree = Int32(3 + options.inherited.count)
        for (index, source) in options.inherited.enumerated() where code == 0 {
            guard source >= firstFree else {
                throw SystemError(
                    "an inherited descriptor \(source) below \(firstFree) for \(executable)", errno: EINVAL)
            }
            code = posix_spawn_file_actions_adddup2(&actions, source, Int32(3 + index))
        }
        #if canImport(Glibc)
            if code == 0, let closeFrom = Pidfd.addCloseFrom { code = closeFrom(&actions, firstFree) }
            if code == 0, let directory = options.workingDirectory {
                guard let addChdir = Pidfd.addChdir else {
                    throw SystemError("posix_spawn_file_actions_addchdir_np for \(executable)", errno: ENOSYS)
                }
                code = addChdir(&actions, directory)
            }
        #else
            if code == 0, let directory = options.workingDirectory {
                code = posix_spawn_file_actions_addchdir_np(&actions, directory)
            }
        #endif
        guard code == 0 else { throw SystemError("posix_spawn setup for \(executable)", errno: code) }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        code = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard code == 0 else { throw SystemError("posix_spawn \(executable)", errno: code) }
        return ChildProcess(pid: pid)
    }

    /// How it ended, once it has and it is reaped (reaping it if it has just ended); nil while it runs.
    package func reapIfExited() -> Status? {
        status.withLock { status -> Status? in
            if let status { return status }
            var info = siginfo_t()
            let result =
                handle >= 0
                ? waitid(P_PIDFD, id_t(handle), &info, WEXITED | WNOHANG)
                : waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG)
            if result != 0 {
                // ECHILD: reaped elsewhere; EINTR: look again next time.
                if errno == ECHILD { status = .unknown }
                return status
            }
            guard Self.childPid(of: info) != 0 else { return nil }
            status = Self.status(of: info)
            return status
        }
    }

    /// Calls `action` on `loop`'s thread once the process has ended, with how it ended (reaping it).
    package func onExit(on loop: EventLoop, _ action: @escaping @Sendable (Status) -> Void) {
        if let ended = reapIfExited() { return loop.execute { action(ended) } }
        guard handle >= 0 else {
            // No pidfd: look again every 10 ms of the loop's own time (only where the system has none).
            let poll: @Sendable () -> Void = { [self] in onExit(on: loop, action) }
            _ = loop.scheduleTimer(atNanoseconds: monotonicNanoseconds() + 10_000_000, poll)
            return
        }
        let registration = Mutex<Registration?>(nil)
        do {
            let watched = try loop.register(handle, interest: .read) { [self] _ in
                guard let ended = reapIfExited() else { return }
                registration.withLock { $0 }?.cancel()
                action(ended)
            }
            registration.withLock { $0 = watched }
            // It may have ended before the registration: look once more.
            if let ended = reapIfExited() {
                watched.cancel()
                loop.execute { action(ended) }
            }
        } catch {
            loop.execute { [self] in action(reapIfExited() ?? .unknown) }
        }
    }

    /// Returns once the process has ended, with how it ended.
    package func exit(on loop: EventLoop) async -> Status {
        let ended = Promise<Status>()
        onExit(on: loop) { ended.fulfill($0) }
        return await ended.wait()
    }

    /// Sends `signal` to the process (or its process group), unless it has been reaped: a signal never reaches a
    /// process that took its number afterwards.
    package func send(_ signal: Int32, toGroup: Bool = false) {
        status.withLock { status in
            guard status == nil else { return }
            if handle >= 0, !toGroup {
                _ = Pidfd.sendSignal(handle, signal)
            } else {
                kill(toGroup ? -pid : pid, signal)
            }
        }
    }

    private static func childPid(of info: siginfo_t) -> Int32 {
        #if canImport(Glibc)
            info._sifields._sigchld.si_pid
        #else
            info.si_pid
        #endif
    }

    private static func status(of info: siginfo_t) -> Status {
        #if canImport(Glibc)
            let value = info._sifields._sigchld.si_status
        #else
            let value = info.si_status
        #endif
        return info.si_code == Int32(CLD_EXITED) ? .exited(value) : .signalled(value)
    }
}

/// Another process (not a child: one this process cannot reap), followed by a pidfd so that its end is seen on the
/// event loop and no later process with its number is mistaken for it.
package final class ProcessHandle: Sendable {
    /// Its process id.
    package let pid: Int32
    private let handle: Int32

    /// A handle on the running process `pid`; nil when it has gone already, or the system has no pidfds.
    package init?(pid: Int32) {
        let handle = Pidfd.open(pid)
        guard handle >= 0 else { return nil }
        self.pid = pid
        self.handle = handle
    }

    deinit { Descriptor.close(handle) }

    /// Sends `signal` to it (never to a later process with its number).
    @discardableResult
    package func send(_ signal: Int32) -> Bool { Pidfd.sendSignal(handle, signal) == 0 }

    /// Returns once the process has ended, or the waiting task is cancelled.
    package func exit(on loop: EventLoop) async {
        let ended = Promise<Void>()
        let registration: Registration
        do {
            registration = try loop.register(handle, interest: .read) { _ in ended.fulfill(()) }
        } catch {
            return
        }
        _ = await ended.waitUnlessCancelled()
        registration.cancel()
    }
}

/// The pidfd calls, looked up in the C library at run time (Swift's Glibc module does not export them).
enum Pidfd {
    #if canImport(Glibc)
        private typealias Open = @convention(c) (Int32, UInt32) -> Int32
        private typealias SendSignal = @convention(c) (Int32, Int32, UnsafeMutableRawPointer?, UInt32) -> Int32
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

        private static let openCall: Open? = dlsym(nil, "pidfd_open").map { unsafeBitCast($0, to: Open.self) }
        private static let sendCall: SendSignal? = dlsym(nil, "pidfd_send_signal").map {
            unsafeBitCast($0, to: SendSignal.self)
        }
        /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34): the child gets no descriptor past 2.
        static let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
            unsafeBitCast($0, to: AddCloseFrom.self)
        }
        typealias AddChdir =
            @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>)
            -> Int32
        /// `posix_spawn_file_actions_addchdir_np` (glibc 2.29): the child starts in another directory.
        static let addChdir: AddChdir? = dlsym(nil, "posix_spawn_file_actions_addchdir_np").map {
            unsafeBitCast($0, to: AddChdir.self)
        }
    #endif

    /// A pidfd for `pid` (close-on-exec, as pidfds are), or -1.
    static func open(_ pid: Int32) -> Int32 {
        #if canImport(Glibc)
            openCall?(pid, 0) ?? -1
        #else
            -1
        #endif
    }

    static func sendSignal(_ handle: Int32, _ signal: Int32) -> Int32 {
        #if canImport(Glibc)
            sendCall?(handle, signal, nil, 0) ?? -1
        #else
            -1
        #endif
    }
}
