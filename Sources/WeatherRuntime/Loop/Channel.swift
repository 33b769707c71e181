import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One descriptor's bytes in and out, served by an `EventLoop`: input is read when it arrives and handed to the
/// owner on the loop's thread; output is written at once from the calling thread when the descriptor takes it,
/// else queued and written by the loop when it can take more. No call blocks: a peer that stops reading grows
/// the queue (`unwrittenBytes`), which the owner bounds.
///
/// A socket, a pipe or a terminal is watched for readiness; a descriptor the selector cannot watch (a regular
/// file, `/dev/null`) is always ready, and is read a chunk per turn of the loop. An inherited pipe or terminal
/// is reopened (through `/proc/self/fd`) so that it can be made non-blocking without changing the descriptor
/// the parent shares; where that fails, it is made non-blocking itself.
package final class Channel: Sendable {
    /// What the owner's input handler is told, on the loop's thread.
    package enum Input {
        /// Bytes read (valid only during the call).
        case bytes(UnsafeRawBufferPointer)
        /// The input ended (end of file, or a read error: `errno`, 0 at a clean end); nothing more comes.
        case end(errno: Int32)
    }

    /// What happened to the output, told to the owner on the loop's thread (or the writing thread).
    package enum OutputEvent: Sendable {
        /// The queue fell to `lowWater` bytes or below after having been above it.
        case room
        /// A write failed (`EPIPE`: the peer is gone); what was queued is dropped and later writes are refused.
        case failed(errno: Int32)
    }

    private enum Mode {
        /// Watched by the selector.
        case watched
        /// Always ready: read a chunk per turn, write blocking (a regular file).
        case alwaysReady
    }

    private struct State {
        var mode = Mode.watched
        var registration: Registration?
        var reading = false
        var paused = false
        var inputEnded = false
        /// A read chunk is scheduled on the loop (always-ready input, or input left after a hang-up).
        var readScheduled = false
        var hungUp = false
        var queue: [[UInt8]] = []
        /// How much of `queue.first` is written.
        var offset = 0
        var unwritten = 0
        var aboveLowWater = false
        var outputFailed: Int32?
        var shutdownWhenFlushed = false
        var closed = false
        var onInput: (@Sendable (Input) -> Void)?
        var onHangup: (@Sendable () -> Void)?
        var onOutput: (@Sendable (OutputEvent) -> Void)?
        /// Told once the queue is empty (or the output failed, or the channel closed).
        var onFlushed: [@Sendable () -> Void] = []
    }

    /// The loop that serves the channel.
    package let loop: EventLoop
    /// The descriptor read and written (maybe a reopened copy of the one given).
    private let fd: Int32
    /// Whether `close` closes `fd`.
    private let ownsDescriptor: Bool
    private let isSocket: Bool
    /// The unwritten bytes at or below which the owner is told there is room again.
    package let lowWater: Int
    private let state = Mutex(State())
    private let flushed = WaitQueue<Void>()

    /// Serves `fd` on `loop`.
    ///
    /// - Parameters:
    ///   - owned: whether the channel owns `fd` (closes it at `close`); an inherited standard descriptor is not
    ///     owned (a reopened copy of it is, and is closed).
    ///   - direction: for an inherited pipe or terminal, which way it is used (its copy is opened that way).
    ///   - lowWater: see `OutputEvent.room`.
    package init(loop: EventLoop, fd: Int32, owned: Bool, direction: Interest = [.read, .write], lowWater: Int = 0)
        throws(SystemError)
    {
        self.loop = loop
        self.lowWater = lowWater
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw SystemError("fstat", errno: errno) }
        let type = status.st_mode & S_IFMT
        isSocket = type == S_IFSOCK
        var descriptor = fd
        var owns = owned
        if type == S_IFIFO || type == S_IFCHR, !owned, let copy = Self.reopen(fd, direction: direction) {
            descriptor = copy
            owns = true
        } else if !isSocket, type != S_IFREG {
            let flags = fcntl(fd, F_GETFL)
            if flags >= 0, flags & O_NONBLOCK == 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
        } else if isSocket, owned {
            let flags = fcntl(fd, F_GETFL)
            if flags >= 0, flags & O_NONBLOCK == 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
        }
        self.fd = descriptor
        ownsDescriptor = owns
        if type == S_IFREG || type == S_IFBLK {
            state.withLock { $0.mode = .alwaysReady }
            return
        }
        do {
            let registration = try loop.register(descriptor, interest: []) { [weak self] readiness in
                self?.ready(readiness)
            }
            state.withLock { $0.registration = registration }
        } catch  where error.errno == EPERM {
            state.withLock { $0.mode = .alwaysReady }
        } catch {
            if owns { Descriptor.close(descriptor) }
            throw error
        }
    }

    /// A non-blocking copy of an inherited pipe or terminal, opened anew so its flags are the channel's alone.
    private static func reopen(_ fd: Int32, direction: Interest) -> Int32? {
        #if os(Linux)
            let access = direction == .read ? O_RDONLY : direction == .write ? O_WRONLY : O_RDWR
            let copy = open("/proc/self/fd/\(fd)", access | O_NONBLOCK | O_CLOEXEC)
            return copy >= 0 ? copy : nil
        #else
            return nil
        #endif
    }

    // MARK: Input

    /// Starts reading; `handler` gets each chunk and then the end, on the loop's thread. `onHangup` is told once
    /// when the peer hangs up or the descriptor fails, whether or not the channel is reading.
    package func startReading(
        onHangup: (@Sendable () -> Void)? = nil, _ handler: @escaping @Sendable (Input) -> Void
    ) {
        state.withLock { state in
            state.onInput = handler
            state.onHangup = onHangup
            state.reading = true
        }
        updateInterest()
    }

    /// Tells `handler` once when the peer hangs up, for a channel that is only written.
    package func onHangup(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.onHangup = handler }
    }

    /// Stops reading until `resumeReading` (bytes already read are still handed on).
    package func pauseReading() {
        let changed = state.withLock { state -> Bool in
            defer { state.paused = true }
            return !state.paused
        }
        if changed { updateInterest() }
    }

    /// Reads again after `pauseReading`.
    package func resumeReading() {
        let changed = state.withLock { state -> Bool in
            defer { state.paused = false }
            return state.paused
        }
        if changed { updateInterest() }
    }

    /// Ends the input now, as if the peer had (a shutdown that stops taking requests): the handler is told
    /// `.end` once, on the loop's thread.
    package func endInput() {
        loop.executeSoon { [self] in endInputOnLoop(errno: 0) }
    }

    private func endInputOnLoop(errno: Int32) {
        let handler = state.withLock { state -> (@Sendable (Input) -> Void)? in
            guard !state.inputEnded, !state.closed else { return nil }
            state.inputEnded = true
            state.reading = false
            return state.onInput
        }
        guard let handler else { return }
        updateInterest()
        handler(.end(errno: errno))
    }

    /// Sets the selector's interest from the state, or schedules the next read of an always-ready input.
    private func updateInterest() {
        let schedule = state.withLock { state -> Bool in
            let wantsInput = state.reading && !state.paused && !state.inputEnded && !state.closed
            var interest: Interest = []
            if wantsInput { interest.insert(.read) }
            if !state.queue.isEmpty, state.outputFailed == nil, !state.closed { interest.insert(.write) }
            if let registration = state.registration, !state.hungUp { registration.setInterest(interest) }
            guard wantsInput, state.mode == .alwaysReady || state.hungUp, !state.readScheduled else { return false }
            state.readScheduled = true
            return true
        }
        if schedule { loop.execute { [self] in readScheduledChunk() } }
    }

    /// One chunk of an always-ready input, then the next turn's if still reading.
    private func readScheduledChunk() {
        let go = state.withLock { state -> Bool in
            state.readScheduled = false
            return state.reading && !state.paused && !state.inputEnded && !state.closed
        }
        guard go else { return }
        readChunk()
        updateInterest()
    }

    /// Reads what the descriptor has (one chunk) and hands it on; at the end, ends the input.
    private func readChunk() {
        let ended = loop.withReadBuffer { buffer -> Int32? in
            let count = Descriptor.readNow(fd, into: buffer, socket: isSocket)
            if count > 0 {
                let handler = state.withLock { $0.closed ? nil : $0.onInput }
                handler?(.bytes(UnsafeRawBufferPointer(rebasing: buffer[..<count])))
                return nil
            }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return nil }
            return count == 0 ? 0 : errno
        }
        if let ended { endInputOnLoop(errno: ended) }
    }

    /// The loop's report for the descriptor.
    private func ready(_ readiness: Readiness) {
        if readiness.contains(.readable) {
            let reading = state.withLock { $0.reading && !$0.paused && !$0.inputEnded && !$0.closed }
            if reading { readChunk() }
        }
        if readiness.contains(.writable) { flushQueue() }
        if readiness.contains(.hangup) { hungUp() }
    }

    /// The peer is gone: stop watching (a hang-up is reported on every turn until then), read what is left
    /// without waiting, and tell the owner.
    private func hungUp() {
        let (first, handler) = state.withLock { state -> (Bool, (@Sendable () -> Void)?) in
            guard !state.hungUp else { return (false, nil) }
            state.hungUp = true
            state.registration?.cancel()
            return (true, state.onHangup)
        }
        guard first else { return }
        updateInterest()
        flushQueue()
        handler?()
    }

    // MARK: Output

    /// Bytes queued and not yet written.
    package var unwrittenBytes: Int { state.withLock { $0.unwritten } }

    /// Whether a write has failed (the peer is gone) or the channel is closed.
    package var isOutputClosed: Bool { state.withLock { $0.outputFailed != nil || $0.closed } }

    /// Where the owner is told of `OutputEvent`s.
    package func onOutput(_ handler: @escaping @Sendable (OutputEvent) -> Void) {
        state.withLock { $0.onOutput = handler }
    }

    /// Writes `bytes` now if the descriptor takes them, else queues what is left for the loop; false when the
    /// output has failed or the channel is closed (the bytes are dropped).
    @discardableResult
    package func write(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return !isOutputClosed }
        var failure: (Int32, (@Sendable (OutputEvent) -> Void)?)?
        let accepted = state.withLock { state -> Bool in
            guard !state.closed, state.outputFailed == nil else { return false }
            if !state.queue.isEmpty {
                state.queue.append(bytes)
                state.unwritten += bytes.count
                if state.unwritten > lowWater { state.aboveLowWater = true }
                return true
            }
            let written = bytes.withUnsafeBytes { writeSome($0, mode: state.mode) }
            if written == bytes.count { return true }
            if written < 0 {
                state.outputFailed = errno
                failure = (errno, state.onOutput)
                return false
            }
            state.queue.append(written == 0 ? bytes : Array(bytes[written...]))
            state.unwritten += bytes.count - written
            if state.unwritten > lowWater { state.aboveLowWater = true }
            if let registration = state.registration, !state.hungUp { registration.add(.write) }
            return true
        }
        if let (code, handler) = failure {
            announceFlushed()
            handler?(.failed(errno: code))
        }
        return accepted
    }

    /// Writes what the descriptor takes without waiting: the count (0 when it takes nothing now), or -1 with
    /// `errno` set when the write failed. An always-ready descriptor is written whole (a file never waits).
    private func writeSome(_ bytes: UnsafeRawBufferPointer, mode: Mode) -> Int {
        if mode == .alwaysReady {
            guard let code = Descriptor.writeAll(fd, bytes) else { return bytes.count }
            errno = code
            return -1
        }
        return Descriptor.writeNow(fd, bytes, socket: isSocket)
    }

    /// Writes what is queued as far as the descriptor takes it (on the loop's thread).
    private func flushQueue() {
        var events: [OutputEvent] = []
        let handler = state.withLock { state -> (@Sendable (OutputEvent) -> Void)? in
            while let first = state.queue.first, state.outputFailed == nil, !state.closed {
                let written = first.withUnsafeBytes { raw in
                    writeSome(UnsafeRawBufferPointer(rebasing: raw[state.offset...]), mode: state.mode)
                }
                if written < 0 {
                    state.outputFailed = errno
                    state.queue = []
                    state.unwritten = 0
                    events.append(.failed(errno: errno))
                    break
                }
                state.unwritten -= written
                state.offset += written
                guard state.offset == first.count else { break }
                state.queue.removeFirst()
                state.offset = 0
            }
            if state.queue.isEmpty {
                if let registration = state.registration, !state.hungUp { registration.remove(.write) }
                if state.shutdownWhenFlushed, isSocket { _ = shutdown(fd, Int32(SHUT_WR)) }
            }
            if state.aboveLowWater, state.unwritten <= lowWater, state.outputFailed == nil {
                state.aboveLowWater = false
                events.append(.room)
            }
            return state.onOutput
        }
        if isFlushed { announceFlushed() }
        for event in events { handler?(event) }
    }

    private func announceFlushed() {
        let waiting = state.withLock { state -> [@Sendable () -> Void] in
            defer { state.onFlushed = [] }
            return state.onFlushed
        }
        flushed.resumeAll(())
        for action in waiting { action() }
    }

    /// Calls `action` on the loop's thread once everything written so far has reached the descriptor (or the
    /// output failed, or the channel closed): at once when it has.
    package func whenFlushed(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            let flushed = state.queue.isEmpty || state.outputFailed != nil || state.closed
            if !flushed { state.onFlushed.append(action) }
            return flushed
        }
        if now { loop.executeSoon(action) }
    }

    private var isFlushed: Bool { state.withLock { $0.queue.isEmpty || $0.outputFailed != nil || $0.closed } }

    /// Returns once everything written so far has reached the descriptor (or the output failed, the channel
    /// closed, or the waiting task was cancelled).
    package func flush() async {
        _ = await flushed.wait { isFlushed ? () : nil }
    }

    /// Ends a socket's sending side once everything queued is written (the peer reads the end of input).
    package func shutdownOutputWhenFlushed() {
        let now = state.withLock { state -> Bool in
            state.shutdownWhenFlushed = true
            return state.queue.isEmpty
        }
        if now, isSocket { _ = shutdown(fd, Int32(SHUT_WR)) }
    }

    /// Shuts a socket down both ways at once (the peer sees the end; a blocked peer wakes), keeping the
    /// descriptor until `close`.
    package func shutdownBoth() {
        if isSocket { _ = shutdown(fd, Int32(SHUT_RDWR)) }
    }

    /// Stops reading and writing (what is queued is dropped), and closes the descriptor if the channel owns it
    /// (on the loop's thread, after its last handler call). Later calls do nothing.
    package func close() {
        let registration = state.withLock { state -> Registration?? in
            guard !state.closed else { return nil }
            state.closed = true
            state.queue = []
            state.unwritten = 0
            state.onInput = nil
            state.onHangup = nil
            state.onOutput = nil
            return .some(state.registration)
        }
        guard let registration else { return }
        announceFlushed()
        if let registration {
            if ownsDescriptor { registration.closeDescriptor() } else { registration.cancel() }
        } else if ownsDescriptor {
            loop.executeSoon { [fd] in Descriptor.close(fd) }
        }
    }
}
