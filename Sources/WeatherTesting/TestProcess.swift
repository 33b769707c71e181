import Foundation
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process the tests start: `weatherd`, a server they run against (`nats-server`, `dbus-daemon`), a
/// command. Started with `posix_spawn` through `ChildProcess` and followed by its pidfd on the test runtime's
/// loop, never with Foundation's `Process`: on Linux its `run()` reads `/proc/self/fd` with a buffer over-read
/// that now and then crashes a test process full of descriptors and threads (swift-corelibs-foundation#5472).
package final class TestProcess: Sendable {
    /// One of the child's standard streams.
    package enum Stream: Sendable {
        /// `/dev/null`.
        case null
        /// A new pipe; this process keeps the other end (`input`, `output`, `errors`).
        case pipe
        /// A descriptor of this process, duplicated in (this process keeps and closes its own).
        case descriptor(Int32)
    }

    private let child: ChildProcess
    /// The write end of the child's standard input, when it is a pipe.
    package let input: FileHandle?
    /// The read end of the child's standard output, when it is a pipe.
    package let output: FileHandle?
    /// The read end of the child's standard error, when it is a pipe.
    package let errors: FileHandle?

    /// Starts `executable` with `arguments` and exactly `environment`, in `directory` (else this process's), with
    /// `inherited` as its descriptors 3, 4, … (see `ChildProcess.Options.inherited`).
    ///
    /// - Throws: `SystemError` when a pipe cannot be made or the process cannot be started.
    package init(
        _ executable: String, arguments: [String], environment: [String: String],
        standardInput: Stream = .null, standardOutput: Stream = .null, standardError: Stream = .null,
        directory: String? = nil, inherited: [Int32] = []
    ) throws(SystemError) {
        var options = ChildProcess.Options()
        options.workingDirectory = directory
        options.inherited = inherited
        var theirs: [Int32] = []
        defer { theirs.forEach(Descriptor.close) }
        var ours: [Int32?] = []
        for (stream, childReads) in [(standardInput, true), (standardOutput, false), (standardError, false)] {
            let given: Int32?
            switch stream {
            case .null:
                given = nil
                ours.append(nil)
            case .descriptor(let fd):
                given = fd
                ours.append(nil)
            case .pipe:
                let (read, write) = try Self.pipe()
                given = childReads ? read : write
                theirs.append(given!)
                ours.append(childReads ? write : read)
            }
            switch ours.count {
            case 1: options.standardInput = given
            case 2: options.standardOutput = given
            default: options.standardError = given
            }
        }
        do {
            child = try ChildProcess.spawn(
                executable, arguments: arguments, environment: environment, options: options)
        } catch {
            ours.compactMap { $0 }.forEach(Descriptor.close)
            throw error
        }
        input = ours[0].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        output = ours[1].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        errors = ours[2].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
    }

    /// A pipe whose ends are close-on-exec. A child `ChildProcess` starts meanwhile gets neither end even before
    /// the flag is set: it closes every descriptor past 2.
    private static func pipe() throws(SystemError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard Self.systemPipe(&ends) == 0 else { throw SystemError("pipe", errno: errno) }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    #if canImport(Glibc)
        private static let systemPipe = Glibc.pipe
    #else
        private static let systemPipe = Darwin.pipe
    #endif

    /// The child's process id.
    package var pid: Int32 { child.pid }

    /// Whether it has not ended yet.
    package var isRunning: Bool { child.reapIfExited() == nil }

    /// How it ended as a shell says it: the exit status, or the number of the signal that ended it; nil while it
    /// runs.
    package var status: Int32? { child.reapIfExited().map(Self.number) }

    /// Sends `signal`, unless it has ended (and been reaped).
    package func send(_ signal: Int32) { child.send(signal) }

    /// Returns once it has ended, with `status`.
    package func exit() async -> Int32 { Self.number(await child.exit(on: Runtime.testing().loop)) }

    private static func number(_ status: ChildProcess.Status) -> Int32 {
        switch status {
        case .exited(let code): code
        case .signalled(let signal): signal
        case .unknown: -1
        }
    }

    deinit {
        // Reaped whenever it ends, so that no test leaves a zombie behind (it is not stopped: as with any child,
        // whoever started it says when it should end).
        if child.reapIfExited() == nil { child.onExit(on: Runtime.testing().loop) { _ in } }
    }
}
