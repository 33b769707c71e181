import Synchronization
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One run of the `--exec` command: `/bin/sh -c CMD` in a process group of its own, the alert on its standard
/// input, its standard output discarded and the tail of its standard error kept.
///
/// The blocking parts (writing standard input, reading standard error, waiting for the exit) each run on a
/// thread of their own (`onOwnThread`). A signal goes to the whole group, and only while the process is not
/// yet reaped, so it can never reach a process that took its number afterwards.
final class HookProcess: Sendable {
    /// How many of standard error's last bytes are kept.
    static let tailBytes = 2048

    let pid: pid_t
    private let input: Int32
    private let errors: Int32
    /// Whether the process has been reaped (its pid may then belong to another).
    private let reaped = Mutex(false)

    /// Starts `command` with `environment` added to this process's own.
    ///
    /// - Throws: `HookError` when the pipes or the process cannot be made.
    init(_ command: String, environment: [String: String]) throws(HookError) {
        let started = Self.spawning.withLock { _ in
            Result { () throws(HookError) in try Self.spawn(command, environment) }
        }
        (pid, input, errors) = try started.get()
    }

    private static func spawn(
        _ command: String, _ environment: [String: String]
    ) throws(HookError) -> (pid_t, Int32, Int32) {
        var stdinPipe: [Int32] = [-1, -1]
        var stderrPipe: [Int32] = [-1, -1]
        guard Self.makePipe(&stdinPipe) else {
            throw HookError("cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        guard Self.makePipe(&stderrPipe) else {
            close(stdinPipe[0])
            close(stdinPipe[1])
            throw HookError("cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        #if canImport(Glibc)
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #else
            var actions: posix_spawn_file_actions_t?
            var attributes: posix_spawnattr_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
        posix_spawnattr_init(&attributes)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        // SIGPIPE is ignored in weatherd; the hook gets the default back, as a shell's commands expect.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var variables = Self.currentEnvironment()
        for (name, value) in environment { variables[name] = value }
        let words: [String] = ["/bin/sh", "-c", command]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        var child: pid_t = 0
        let code = posix_spawn(&child, "/bin/sh", &actions, &attributes, argv, envp)
        for pointer in argv + envp { free(pointer) }
        posix_spawn_file_actions_destroy(&actions)
        posix_spawnattr_destroy(&attributes)
        close(stdinPipe[0])
        close(stderrPipe[1])
        guard code == 0 else {
            close(stdinPipe[1])
            close(stderrPipe[0])
            throw HookError("cannot start /bin/sh: \(String(cString: strerror(code)))")
        }
        return (child, stdinPipe[1], stderrPipe[0])
    }

    /// Writes `bytes` to its standard input and closes it (a hook that does not read it loses nothing else).
    func feed(_ bytes: [UInt8]) async {
        await onOwnThread(named: "weatherd-hook-stdin") { [input] in
            _ = Descriptor.writeAll(input, bytes)
            close(input)
        }
    }

    /// The last `tailBytes` of its standard error, once every writer has closed it.
    func errorTail() async -> [UInt8] {
        await onOwnThread(named: "weatherd-hook-stderr") { [errors] in
            var tail: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { Descriptor.read(errors, into: $0) }
                guard count > 0 else { break }
                tail += chunk[..<count]
                if tail.count > Self.tailBytes { tail.removeFirst(tail.count - Self.tailBytes) }
            }
            close(errors)
            return tail
        }
    }

    /// Waits for it to end and reaps it: its wait status.
    func exit() async -> Int32 {
        await onOwnThread(named: "weatherd-hook-wait") { [self] in
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
            return self.reaped.withLock { reaped in
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                reaped = true
                return status
            }
        }
    }

    /// Whether a signal was sent to it.
    private let signalled = Mutex(false)

    /// Whether `signal(_:)` sent it a signal.
    var wasSignalled: Bool { signalled.withLock { $0 } }

    /// Sends `signal` to its process group, unless it has been reaped.
    func signal(_ signal: Int32) {
        reaped.withLock { reaped in
            guard !reaped else { return }
            signalled.withLock { $0 = true }
            kill(-pid, signal)
        }
    }

    /// Held from making a hook's pipes to its start, so that no other hook starting meanwhile inherits them
    /// before they are marked close-on-exec.
    private static let spawning = Mutex(())

    /// A close-on-exec pipe (the spawn's `dup2` clears the flag on the child's copies).
    private static func makePipe(_ ends: inout [Int32]) -> Bool {
        guard pipe(&ends) == 0 else { return false }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    private static func currentEnvironment() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return variables
    }
}

/// The hook could not be started.
struct HookError: Error, Sendable, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
