/// What the runtime gives the code above it: the one clock, the one event loop and the one pool for blocking
/// work. A process builds one (`main`) and passes it down; tests give theirs a manual clock.
package struct Runtime: Sendable {
    /// Every wait and every timestamp.
    package let clock: any RuntimeClock
    /// Readiness of every descriptor, and timers.
    package let loop: EventLoop
    /// Work that must block.
    package let pool: BlockingPool

    package init(clock: any RuntimeClock, loop: EventLoop, pool: BlockingPool) {
        self.clock = clock
        self.loop = loop
        self.pool = pool
    }

    /// The same loop and pool on another clock.
    package func with(clock: any RuntimeClock) -> Runtime { Runtime(clock: clock, loop: loop, pool: pool) }

    /// A runtime on the system clock whose loop runs on a thread of its own.
    ///
    /// - Parameter poolSize: the blocking pool's threads (4: a log scan, a snapshot, a compaction and a child
    ///   process's wait can block at once and the rest still waits its turn, not for a thread).
    package static func started(poolSize: Int = 4) throws(SystemError) -> Runtime {
        let loop = try EventLoop()
        loop.start()
        return Runtime(clock: SystemClock(), loop: loop, pool: BlockingPool(size: poolSize))
    }
}
