import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one readiness loop of a weatherd process (swift-nio's `EventLoop`, much reduced): one thread that waits
/// on every registered descriptor at once (epoll on Linux, kqueue on Darwin) and runs, in order, the handlers of
/// those that are ready, the work other threads hand it (`execute`) and the timers that are due.
///
/// A descriptor costs a registration, not a thread: the standard input and output of a connection, a relay's
/// socket, a listener, a D-Bus connection, a hook's pipes. Handlers and scheduled work run on the loop's thread
/// one at a time, so what they share needs no lock between them; they must never block (work that must block
/// goes to a `BlockingPool`).
///
/// A daemon runs its loop on a thread of its own (`start`); a relay, which has nothing else to do, runs it on
/// its main thread (`run`) and so needs no other thread at all.
package final class EventLoop: Sendable {
    private struct Entry {
        var fd: Int32
        var handler: @Sendable (Readiness) -> Void
    }

    private struct Timer {
        var deadline: UInt64
        var id: UInt64
        var action: @Sendable () -> Void
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var nextToken: UInt64 = 1
        var queue: [@Sendable () -> Void] = []
        var timers: [UInt64: Timer] = [:]
        /// The earliest timer deadline, kept so a round need not scan the timers when none is due.
        var earliest: UInt64 = .max
        /// Whether the loop thread is in (or about to enter) the selector's wait, so work handed to it must
        /// wake it.
        var sleeping = false
        var stopping = false
        var running = false
    }

    private let selector: Selector
    private let state = Mutex(State())
    /// The thread running the loop (`pthread_self`, as a number), 0 when none does.
    private let thread = Atomic<UInt>(0)
    /// Opened once `run` returns.
    private let ended = Latch()
    /// The loop's name, for its thread and errors.
    package let name: String
    /// Where channels read into: touched only on the loop's thread, one read at a time.
    private nonisolated(unsafe) let readBuffer = UnsafeMutableRawBufferPointer.allocate(
        byteCount: 1 << 16, alignment: 16)

    /// A loop that runs once `start` or `run` is called.
    ///
    /// - Throws: `SystemError` when the selector cannot be made (out of descriptors).
    package init(name: String = "weatherd-loop") throws(SystemError) {
        self.name = name
        selector = try Selector()
    }

    deinit { readBuffer.deallocate() }

    /// Lends the loop's read buffer to `body`; only on the loop's thread.
    func withReadBuffer<T>(_ body: (UnsafeMutableRawBufferPointer) -> T) -> T {
        precondition(inLoop, "the read buffer is the loop thread's")
        return body(readBuffer)
    }

    /// Starts the loop on a thread of its own.
    package func start() {
        startThread(named: name) { [self] in run() }
    }

    /// Runs the loop on the calling thread until `stop`.
    package func run() {
        let first = state.withLock { state -> Bool in
            defer { state.running = true }
            return !state.running
        }
        precondition(first, "an event loop runs once")
        thread.store(Self.currentThread, ordering: .releasing)
        var buffer = SelectorBuffer()
        var work: [@Sendable () -> Void] = []
        var due: [Timer] = []
        while true {
            let (stop, timeout) = state.withLock { state -> (Bool, UInt64??) in
                swap(&work, &state.queue)
                if state.stopping && work.isEmpty { return (true, nil) }
                if !work.isEmpty { return (false, .some(0)) }
                state.sleeping = true
                guard state.earliest != .max else { return (false, .some(nil)) }
                let now = monotonicNanoseconds()
                return (false, .some(state.earliest > now ? state.earliest - now : 0))
            }
            if stop { break }
            for item in work { item() }
            work.removeAll(keepingCapacity: true)
            if let timeout { waitForReadiness(timeout: timeout, buffer: &buffer) }
            takeDueTimers(into: &due)
            for timer in due { timer.action() }
            due.removeAll(keepingCapacity: true)
        }
        thread.store(0, ordering: .releasing)
        let left = state.withLock { state -> [Entry] in
            defer { state.entries = [:] }
            return Array(state.entries.values)
        }
        for entry in left { selector.remove(entry.fd) }
        ended.open()
    }

    /// Waits for ready descriptors (or a wake-up, or `timeout` nanoseconds) and runs their handlers.
    private func waitForReadiness(timeout: UInt64?, buffer: inout SelectorBuffer) {
        var ready: [(UInt64, Readiness)] = []
        selector.wait(timeout: timeout, into: &buffer) { token, readiness in ready.append((token, readiness)) }
        state.withLock { $0.sleeping = false }
        for (token, readiness) in ready {
            // A registration cancelled earlier in this round is gone: its event is stale.
            guard let handler = state.withLock({ $0.entries[token]?.handler }) else { continue }
            handler(readiness)
        }
    }

    private func takeDueTimers(into due: inout [Timer]) {
        state.withLock { state in
            guard state.earliest != .max else { return }
            let now = monotonicNanoseconds()
            guard state.earliest <= now else { return }
            var earliest = UInt64.max
            for (id, timer) in state.timers {
                if timer.deadline <= now {
                    due.append(timer)
                    state.timers[id] = nil
                } else {
                    earliest = min(earliest, timer.deadline)
                }
            }
            state.earliest = earliest
        }
        due.sort { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
    }

    /// Ends `run` once the work already handed over has run; registrations left are dropped (their descriptors
    /// stay with their owners).
    package func stop() {
        state.withLock { $0.stopping = true }
        selector.wake()
    }

    /// Returns once `run` has returned.
    package func waitUntilStopped() async { await ended.waitIgnoringCancellation() }

    /// Whether the calling thread is the loop's.
    package var inLoop: Bool { thread.load(ordering: .acquiring) == Self.currentThread }

    /// Runs `work` on the loop's thread, after what was handed over before it.
    package func execute(_ work: @escaping @Sendable () -> Void) {
        let wake = state.withLock { state -> Bool in
            state.queue.append(work)
            defer { state.sleeping = false }
            return state.sleeping
        }
        if wake { selector.wake() }
    }

    /// Returns (true) once the loop has run the work handed to it before, then looked at its descriptors and
    /// handled those ready: a barrier for a test that asserts something did not happen.
    @discardableResult
    package func turn() async -> Bool {
        let turned = Promise<Bool>()
        execute { [self] in execute { turned.fulfill(true) } }
        return await turned.wait()
    }

    /// Runs `work` at once when called on the loop's thread, else hands it over.
    package func executeSoon(_ work: @escaping @Sendable () -> Void) {
        if inLoop { work() } else { execute(work) }
    }

    // MARK: Registrations

    /// Watches `fd` for `interest`; `handler` runs on the loop's thread whenever it is ready (level-triggered:
    /// again and again while it stays ready), and on a hang-up whatever the interest.
    ///
    /// - Throws: `SystemError` (`EPERM`: the descriptor cannot be watched, such as a regular file).
    package func register(_ fd: Int32, interest: Interest, handler: @escaping @Sendable (Readiness) -> Void)
        throws(SystemError) -> Registration
    {
        let token = state.withLock { state -> UInt64 in
            defer { state.nextToken += 1 }
            state.entries[state.nextToken] = Entry(fd: fd, handler: handler)
            return state.nextToken
        }
        do {
            try selector.add(fd, token: token, interest: interest)
        } catch {
            _ = state.withLock { $0.entries.removeValue(forKey: token) }
            throw error
        }
        return Registration(loop: self, fd: fd, token: token, interest: interest)
    }

    func modify(_ fd: Int32, token: UInt64, from old: Interest, to new: Interest) {
        do {
            try selector.modify(fd, token: token, from: old, to: new)
        } catch {
            // The descriptor was watched a moment ago; failing now means it is broken: tell its handler.
            let handler = state.withLock { $0.entries[token]?.handler }
            if let handler { execute { handler(.hangup) } }
        }
    }

    func remove(_ fd: Int32, token: UInt64) {
        let removed = state.withLock { $0.entries.removeValue(forKey: token) != nil }
        if removed { selector.remove(fd) }
    }

    // MARK: Timers

    /// Runs `action` on the loop's thread once the monotonic clock reaches `deadline` nanoseconds.
    package func scheduleTimer(atNanoseconds deadline: UInt64, _ action: @escaping @Sendable () -> Void) -> LoopTimer {
        let (id, wake) = state.withLock { state -> (UInt64, Bool) in
            defer { state.nextToken += 1 }
            state.timers[state.nextToken] = Timer(deadline: deadline, id: state.nextToken, action: action)
            let sooner = deadline < state.earliest
            state.earliest = min(state.earliest, deadline)
            let wake = sooner && state.sleeping
            if wake { state.sleeping = false }
            return (state.nextToken, wake)
        }
        if wake { selector.wake() }
        return LoopTimer { [self] in cancelTimer(id) }
    }

    private func cancelTimer(_ id: UInt64) {
        _ = state.withLock { $0.timers.removeValue(forKey: id) }
    }

    private static var currentThread: UInt {
        #if canImport(Glibc)
            UInt(pthread_self())
        #else
            UInt(bitPattern: pthread_self())
        #endif
    }
}

/// A descriptor watched by an `EventLoop`.
///
/// Its interest may change from any thread; `cancel` stops the watch. The descriptor stays its owner's: close it
/// only after `cancel`, on the loop's thread (where no handler can be running), which `closeDescriptor` does.
package final class Registration: Sendable {
    private let loop: EventLoop
    /// The descriptor watched.
    package let fd: Int32
    private let token: UInt64
    private let state: Mutex<(interest: Interest, cancelled: Bool)>

    init(loop: EventLoop, fd: Int32, token: UInt64, interest: Interest) {
        self.loop = loop
        self.fd = fd
        self.token = token
        state = Mutex((interest, false))
    }

    /// What the registration currently wants to hear about.
    package var interest: Interest { state.withLock { $0.interest } }

    /// Changes what the descriptor is watched for (nothing after `cancel`).
    package func setInterest(_ interest: Interest) {
        state.withLock { state in
            guard !state.cancelled, state.interest != interest else { return }
            loop.modify(fd, token: token, from: state.interest, to: interest)
            state.interest = interest
        }
    }

    /// Adds `interest` to what is watched.
    package func add(_ interest: Interest) {
        state.withLock { state in
            guard !state.cancelled, !state.interest.isSuperset(of: interest) else { return }
            let new = state.interest.union(interest)
            loop.modify(fd, token: token, from: state.interest, to: new)
            state.interest = new
        }
    }

    /// Removes `interest` from what is watched.
    package func remove(_ interest: Interest) {
        state.withLock { state in
            guard !state.cancelled, !state.interest.isDisjoint(with: interest) else { return }
            let new = state.interest.subtracting(interest)
            loop.modify(fd, token: token, from: state.interest, to: new)
            state.interest = new
        }
    }

    /// Stops watching. Called on the loop's thread, the handler is never called again; called elsewhere, a call
    /// the loop had already begun may still finish.
    package func cancel() {
        let first = state.withLock { state -> Bool in
            defer { state.cancelled = true }
            return !state.cancelled
        }
        guard first else { return }
        loop.remove(fd, token: token)
    }

    /// Stops watching and closes the descriptor on the loop's thread, then calls `closed` there.
    package func closeDescriptor(then closed: @escaping @Sendable () -> Void = {}) {
        cancel()
        loop.executeSoon { [fd] in
            Descriptor.close(fd)
            closed()
        }
    }
}

/// A timer scheduled on an event loop (through a `RuntimeClock`).
package struct LoopTimer: Sendable {
    private let cancelAction: @Sendable () -> Void

    package init(cancel: @escaping @Sendable () -> Void) { cancelAction = cancel }

    /// Stops the timer if it has not fired (it may be running on the loop's thread right now).
    package func cancel() { cancelAction() }
}
