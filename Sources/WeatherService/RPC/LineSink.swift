import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where protocol lines go: standard output in the service, a collector in tests.
public protocol LineSink: Sendable {
    /// Queues one whole line (without its newline).
    func send(_ line: [UInt8])
}

/// The one writer of standard output.
///
/// Lines are queued whole and written by a dedicated thread, which coalesces whatever is queued
/// into one `write`, so no line is ever interleaved with another. A closed pipe (EPIPE; SIGPIPE is
/// ignored) means the client is gone: `onClosed` is called once and further lines are dropped.
public final class StandardOutput: LineSink {
    private struct State {
        var buffer: [UInt8] = []
        var writing = false
        var closed = false
        var stopping = false
        var flushWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let fd: Int32
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let onClosed: @Sendable () -> Void

    /// Creates the writer for `fd` (1 by default); lines queue up until `run` starts writing them.
    public init(fd: Int32 = 1, onClosed: @escaping @Sendable () -> Void) {
        self.fd = fd
        self.onClosed = onClosed
    }

    /// Writes lines on a dedicated thread until `finish`; everything queued before it is written.
    public func run() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread { [self] in
                loop()
                continuation.resume()
            }
            thread.name = "weatherd-stdout"
            thread.start()
        }
    }

    /// Ends `run` once everything queued is written.
    public func finish() {
        state.withLock { $0.stopping = true }
        wake.signal()
    }

    public func send(_ line: [UInt8]) {
        let signal = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.buffer.append(contentsOf: line)
            state.buffer.append(UInt8(ascii: "\n"))
            return !state.writing
        }
        if signal { wake.signal() }
    }

    /// Waits until everything queued so far is written (or the pipe is closed).
    public func flush() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Bool in
                if state.closed || (state.buffer.isEmpty && !state.writing) { return true }
                state.flushWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() } else { wake.signal() }
        }
    }

    private func loop() {
        var chunk: [UInt8] = []
        while true {
            wake.wait()
            var stop = false
            while true {
                let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>]? in
                    if state.buffer.isEmpty || state.closed {
                        state.writing = false
                        stop = state.stopping
                        let waiters = state.flushWaiters
                        state.flushWaiters = []
                        return waiters
                    }
                    swap(&chunk, &state.buffer)
                    state.writing = true
                    return nil
                }
                if let waiters {
                    for waiter in waiters { waiter.resume() }
                    break
                }
                if !writeAll(chunk) { close() }
                chunk.removeAll(keepingCapacity: true)
            }
            if stop { return }
        }
    }

    private func writeAll(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }

    private func close() {
        let first = state.withLock { state -> Bool in
            defer { state.closed = true }
            state.buffer.removeAll()
            return !state.closed
        }
        if first { onClosed() }
    }
}
