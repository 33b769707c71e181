import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGTERM and SIGINT, read on the event loop: a signal costs no thread and is handled outside any signal handler.
///
/// The handler the system runs does one thing, async-signal-safe: it writes the signal's number to a pipe, whose
/// read end the event loop watches (the self-pipe trick). No thread blocks the signals for it, so it works
/// whichever thread the system picks (libdispatch parks the main thread in `sigsuspend` with every signal open);
/// `unblockTermination` undoes a mask the process inherited. Watches share the
/// one pipe; each is told of every signal until it is cancelled. Children get the default actions back
/// (`ChildProcess`).
package final class SignalWatch: Sendable {
    /// The signals watched.
    package static let termination: [Int32] = [SIGTERM, SIGINT]

    private struct Hub {
        var readEnd: Int32
        var registration: Registration
        var handlers: [UInt64: @Sendable (Int32) -> Void] = [:]
        var next: UInt64 = 0
    }

    private static let hub = Mutex<Hub?>(nil)
    private let id: UInt64

    /// Calls `handler` on `loop`'s thread with each SIGTERM or SIGINT received from now on (the first watch of
    /// the process decides the loop for all).
    ///
    /// - Throws: `SystemError` when the pipe cannot be made or watched.
    package init(on loop: EventLoop, _ handler: @escaping @Sendable (Int32) -> Void) throws(SystemError) {
        id = try Self.hub.withLock { hub throws(SystemError) -> UInt64 in
            var installed: Hub
            if let existing = hub { installed = existing } else { installed = try Self.install(on: loop) }
            let id = installed.next
            installed.next += 1
            installed.handlers[id] = handler
            hub = installed
            return id
        }
    }

    /// Unblocks SIGTERM and SIGINT on the calling thread, and so on every thread it starts, whatever mask the
    /// process inherited. Call it first thing in `main`: a parent that spawns weatherd from a thread that blocks
    /// them (libdispatch's workers block every signal, and `posix_spawn` keeps the mask) would otherwise leave it
    /// deaf to being told to stop.
    package static func unblockTermination() {
        var set = sigset_t()
        sigemptyset(&set)
        for number in termination { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Stops telling this watch's handler.
    package func cancel() {
        _ = Self.hub.withLock { $0?.handlers.removeValue(forKey: id) }
    }

    /// Makes the pipe, watches its read end on `loop`, and installs the handlers.
    private static func install(on loop: EventLoop) throws(SystemError) -> Hub {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SystemError("pipe", errno: errno) }
        for fd in ends {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        let readEnd = ends[0]
        let registration: Registration
        do {
            registration = try loop.register(readEnd, interest: .read) { _ in dispatch(readEnd) }
        } catch {
            ends.forEach(Descriptor.close)
            throw error
        }
        signalPipe = ends[1]
        for number in termination {
            var action = sigaction()
            #if canImport(Glibc)
                action.__sigaction_handler.sa_handler = { number in writeSignal(number) }
            #else
                action.__sigaction_u.__sa_handler = { number in writeSignal(number) }
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = Int32(SA_RESTART)
            sigaction(number, &action, nil)
        }
        return Hub(readEnd: readEnd, registration: registration)
    }

    /// Reads the signals' numbers from the pipe and tells every watch (on the loop's thread).
    private static func dispatch(_ readEnd: Int32) {
        var bytes = [UInt8](repeating: 0, count: 64)
        while true {
            let count = bytes.withUnsafeMutableBytes { Descriptor.readNow(readEnd, into: $0, socket: false) }
            guard count > 0 else { return }
            let handlers = hub.withLock { $0.map { Array($0.handlers.sorted { $0.key < $1.key }.map(\.value)) } ?? [] }
            for number in bytes[..<count] {
                for handler in handlers { handler(Int32(number)) }
            }
        }
    }
}

/// The write end of the signals' pipe, set once before any handler is installed and never changed: all the
/// handler reads.
private nonisolated(unsafe) var signalPipe: Int32 = -1

/// The signal handler's whole work: one `write`, which is async-signal-safe (errno is kept for the code the
/// signal interrupted).
private func writeSignal(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipe, &byte, 1)
    errno = saved
}
