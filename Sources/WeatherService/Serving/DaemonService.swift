import Foundation
import Synchronization
import WeatherDomain
import WeatherEngine
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `weatherd serve`'s front: accepts connections on a Unix socket and serves each as a `Connection`
/// of the one engine.
///
/// - A peer of another user is refused with one error line (`peer_refused`) and closed.
/// - Past `maxConnections`, a new peer gets one error line (`too_many_connections`) and is closed.
/// - A connection whose unread output passes `outputLimit` is cut (its requests are cancelled);
///   the others do not notice.
/// - A peer that ends its input (half-close) gets its answers, as on stdin, then the connection closes;
///   a peer that hangs up has its requests cancelled at once.
/// - With `idleExit`, the service returns (and the daemon stops) once no connection has been open
///   for that long.
/// - At shutdown it stops accepting, gives in-flight requests `shutdownGrace`, and returns.
package struct DaemonService: Service {
    package struct Settings: Sendable {
        package var maxLineBytes: Int
        package var maxConnections = 64
        package var idleExit: Duration?
        /// Unread output bytes above which a connection is cut.
        package var outputLimit = 16 << 20
        /// How long a peer that ended its input may wait for its answers.
        package var endOfInputGrace: Duration
        package var shutdownGrace: Duration = .milliseconds(500)

        package init(maxLineBytes: Int, endOfInputGrace: Duration) {
            self.maxLineBytes = maxLineBytes
            self.endOfInputGrace = endOfInputGrace
        }
    }

    let engine: Engine
    let listener: UnixListener
    let settings: Settings
    let clock: any RuntimeClock

    package init(engine: Engine, listener: UnixListener, settings: Settings) {
        self.engine = engine
        self.listener = listener
        self.settings = settings
        clock = engine.clock
    }

    package func run() async {
        let shutdown = ShutdownDeadline(clock: clock, grace: settings.shutdownGrace)
        await withTaskCancellationHandler {
            await shieldedFromCancellation { await serve(until: shutdown) }
        } onCancel: {
            shutdown.begin()
        }
    }

    /// Accepts and serves connections until the shutdown begins or the daemon is idle, then stops
    /// accepting and lets its connections and the engine's background work finish by the deadline.
    private func serve(until shutdown: ShutdownDeadline) async {
        await engine.ready.wait()
        let peers = Peers(settings: settings, clock: clock)
        engine.setFrontStatus { [listener, settings] in
            FrontStatus(socket: listener.path, connections: peers.count, maxConnections: settings.maxConnections)
        }
        listener.start { fd in
            peers.admit(fd) { number in
                await serve(fd: fd, number: number, shutdown: shutdown)
            }
        } onEnd: { error in
            if let error { engine.logger.error("the socket stopped accepting: \(error)") }
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await shutdown.begun() }
            group.addTask { await peers.idleExit() }
            await group.next()
            group.cancelAll()
        }
        if !shutdown.hasBegun {
            engine.setStopReason("idle")
            engine.logger.info("no connection for \(settings.idleExit.map { "\($0)" } ?? "?"); stopping")
        }
        shutdown.begin()
        listener.close()
        peers.stopAll()
        await peers.drain()
        await engine.finishBackground(by: shutdown)
    }

    /// Serves one admitted connection until its peer ends or hangs up, it is cut, or the daemon stops.
    private func serve(fd: Int32, number: Int, shutdown: ShutdownDeadline) async {
        let peer: PeerCredentials
        do {
            peer = try PeerCredentials(fd: fd)
        } catch {
            Self.refuse(fd, .application("peer_refused", "weatherd: refused: \(error)"))
            return
        }
        if let refusal = PeerCredentials.admit(peerUID: peer.uid, ownUID: getuid()) {
            engine.logger.warning("refused a connection from uid \(peer.uid) (pid \(peer.pid.map(String.init) ?? "?"))")
            Self.refuse(fd, .application("peer_refused", refusal))
            return
        }
        let label = "conn:\(number)"
        engine.logger.info("\(label) opened by pid \(peer.pid.map(String.init) ?? "?") (uid \(peer.uid))")
        let input = AsyncStream<LineSplitter.Item>.makeStream()
        let gone = ShutdownDeadline(clock: clock, grace: .zero)
        let output = StandardOutput(fd: fd, limit: settings.outputLimit, overflow: .cut) { [engine] in
            engine.logger.warning("\(label) cut: its peer stopped reading or hung up")
            gone.begin()
            input.continuation.finish()
        }
        let budget = InputBudget()
        StandardInput(fd: fd, maxLineBytes: settings.maxLineBytes).start(
            budget: budget, waitForRoom: { output.waitForRoom() }, into: input.continuation)
        let connection = Connection(engine: engine, label: label, sink: output, maxLineBytes: settings.maxLineBytes)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await output.run() }
            // A shutdown stops the reading: the reader sees end of input, and the answers still come.
            group.addTask {
                await shutdown.begun()
                if !Task.isCancelled { shutdownSocket(fd, .read) }
            }
            await connection.serve(input.stream, budget: budget)
            // A peer that hangs up while its answers are pending has them cancelled at once.
            group.addTask {
                await waitForHangup(of: fd, named: "weatherd-hangup")
                gone.begin()
            }
            await connection.finish(grace: settings.endOfInputGrace, cutShort: [gone, shutdown])
            await output.flush()
            output.finish()
            shutdownSocket(fd, .both)
            group.cancelAll()
        }
        close(fd)
        engine.logger.info("\(label) closed")
    }

    /// Writes one error line (id null) to a peer that is not served, and closes it.
    static func refuse(_ fd: Int32, _ error: RPCError) {
        var line: [UInt8] = []
        RPCLine.error(id: .null, error, into: &line)
        line.append(UInt8(ascii: "\n"))
        line.withUnsafeBytes { raw in _ = send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL)) }
        shutdownSocket(fd, .both)
        close(fd)
    }
}

/// The daemon's connections: numbering, the `--max-connections` bound, the idle timer, and shutdown.
private final class Peers: Sendable {
    private struct State {
        var next = 1
        var open: [Int: Task<Void, Never>] = [:]
        /// Counts admissions, so an idle countdown knows whether a connection came and went meanwhile.
        var admissions: UInt64 = 0
        var stopped = false
    }

    private let settings: DaemonService.Settings
    private let clock: any RuntimeClock
    private let state = Mutex(State())
    private let empty = Latch()
    /// Told whenever the last open connection closes.
    private let quiet = WaitQueue<UInt64>()

    init(settings: DaemonService.Settings, clock: any RuntimeClock) {
        self.settings = settings
        self.clock = clock
    }

    var count: Int { state.withLock { $0.open.count } }

    /// Serves `fd` as connection n in a task of its own, or refuses it when the daemon is full or stopping.
    func admit(_ fd: Int32, _ serve: @escaping @Sendable (Int) async -> Void) {
        let (admitted, stopping) = state.withLock { state -> (Int?, Bool) in
            guard !state.stopped else { return (nil, true) }
            guard state.open.count < settings.maxConnections else { return (nil, false) }
            defer { state.next += 1 }
            let number = state.next
            state.admissions += 1
            state.open[number] = Task {
                await serve(number)
                self.closed(number)
            }
            return (number, false)
        }
        guard admitted == nil else { return }
        if stopping {
            DaemonService.refuse(
                fd,
                .application(
                    "daemon_gone",
                    "weatherd's daemon is stopping; run the command again (a new daemon starts on its own)"))
            return
        }
        DaemonService.refuse(
            fd,
            .application(
                "too_many_connections",
                "weatherd serves at most \(settings.maxConnections) connections at once (--max-connections); "
                    + "try again when one has closed"))
    }

    private func closed(_ number: Int) {
        let nowEmpty = state.withLock { state -> Bool in
            state.open[number] = nil
            return state.open.isEmpty
        }
        if nowEmpty {
            quiet.resumeAll(state.withLock { $0.admissions })
            if state.withLock({ $0.stopped }) { empty.open() }
        }
    }

    /// Returns once no connection has been open for `--idle-exit`, having stopped admitting any; without the
    /// flag, or when cancelled, it only returns when cancelled.
    func idleExit() async {
        guard let limit = settings.idleExit else { return await untilCancelled() }
        while !Task.isCancelled {
            let spell: UInt64? = await quiet.wait { state.withLock { $0.open.isEmpty ? $0.admissions : nil } }
            guard let spell else { return }
            do { try await clock.sleep(for: limit) } catch { return }
            if stopIfIdle(since: spell) { return }
        }
    }

    /// At the end of an idle countdown: admits no more connections, unless one arrived since the countdown
    /// began (checked under the same lock as `admit`, so none slips in between).
    private func stopIfIdle(since spell: UInt64) -> Bool {
        state.withLock { state -> Bool in
            guard state.open.isEmpty, state.admissions == spell, !state.stopped else { return false }
            state.stopped = true
            return true
        }
    }

    /// Admits no more connections.
    func stopAll() {
        let isEmpty = state.withLock { state in
            state.stopped = true
            return state.open.isEmpty
        }
        if isEmpty { empty.open() }
    }

    /// Returns once every connection has finished (after `stopAll`).
    func drain() async { await empty.wait() }
}
