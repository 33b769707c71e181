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
/// Its pipes are served by the event loop and its exit is seen there through its pidfd (`ChildProcess`), so a run
/// costs no thread. A signal goes to the whole group, and only while the process is not yet reaped, so it can
/// never reach a process that took its number afterwards.
final class HookProcess: Sendable {
    /// How many of standard error's last bytes are kept.
    static let tailBytes = 2048

    private let process: ChildProcess
    private let input: Channel
    private let errors: Channel
    private let loop: EventLoop
    /// Whether a signal was sent to it.
    private let signalled = Mutex(false)

    /// Starts `command` with `environment` added to this process's own.
    ///
    /// - Throws: `HookError` when the pipes or the process cannot be made.
    init(_ command: String, environment: [String: String], loop: EventLoop) throws(HookError) {
        self.loop = loop
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
        var variables = Self.currentEnvironment()
        for (name, value) in environment { variables[name] = value }
        var options = ChildProcess.Options()
        options.standardInput = stdinPipe[0]
        options.standardError = stderrPipe[1]
        options.newProcessGroup = true
        let spawned: Result<ChildProcess, SystemError> = Result {
            () throws(SystemError) -> ChildProcess in
            try ChildProcess.spawn("/bin/sh", arguments: ["-c", command], environment: variables, options: options)
        }
        close(stdinPipe[0])
        close(stderrPipe[1])
        do {
            process = try spawned.get()
            input = try Channel(loop: loop, fd: stdinPipe[1], owned: true)
            errors = try Channel(loop: loop, fd: stderrPipe[0], owned: true)
        } catch {
            close(stdinPipe[1])
            close(stderrPipe[0])
            throw HookError("cannot start /bin/sh: \(error)")
        }
    }

    /// Writes `bytes` to its standard input and closes it (a hook that does not read it loses nothing else).
    func feed(_ bytes: [UInt8]) async {
        input.write(bytes)
        await input.flush()
        input.close()
    }

    /// The last `tailBytes` of its standard error, once every writer has closed it.
    func errorTail() async -> [UInt8] {
        let tail = Mutex<[UInt8]>([])
        let ended = Promise<Void>()
        errors.startReading { input in
            switch input {
            case .bytes(let bytes):
                tail.withLock { tail in
                    tail.append(contentsOf: bytes)
                    if tail.count > Self.tailBytes { tail.removeFirst(tail.count - Self.tailBytes) }
                }
            case .end: ended.fulfill(())
            }
        }
        await ended.wait()
        errors.close()
        return tail.withLock { $0 }
    }

    /// Waits for it to end and reaps it: how it ended.
    func exit() async -> ChildProcess.Status { await process.exit(on: loop) }

    /// Whether `signal(_:)` sent it a signal.
    var wasSignalled: Bool { signalled.withLock { $0 } }

    /// Sends `signal` to its process group, unless it has been reaped.
    func signal(_ signal: Int32) {
        signalled.withLock { $0 = true }
        process.send(signal, toGroup: true)
    }

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
