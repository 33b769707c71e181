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
        await engine.ready.wait()
        let peers = Peers(settings: settings, clock: clock)
        engine.setFrontStatus { [listener, settings] in
            FrontStatus(socket: listener.path, connections: peers.count, maxConnections: settings.maxConnections)
        }
        let (accepted, acceptor) = AsyncStream<Int32>.makeStream()
        listener.start(on: engine.runtime) { fd in
            if case .terminated = acceptor.yield(fd) { Self.refuse(fd, Peers.stopping) }
        } onEnd: { [engine] error in
            if let error { engine.logger.error("the socket stopped accepting: \(error)") }
            acceptor.finish()
        }
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                group.addTask { [settings, engine, listener] in
                    guard await peers.idleExit(unless: shutdown) else { return }
                    engine.setStopReason("idle")
                    engine.logger.info("no connection for \(settings.idleExit.map { "\($0)" } ?? "?"); stopping")
                    listener.close()
                }
                for await fd in accepted {
                    switch peers.admit() {
                    case .refused(let error): Self.refuse(fd, error)
                    case .admitted(let number):
                        group.addTask {
                            await serve(fd: fd, number: number, shutdown: shutdown)
                            peers.closed()
                        }
                    }
                }
                // Accepting ended (a shutdown, or the daemon was idle): the connections stop reading and are
                // answered by the deadline.
                shutdown.begin()
                peers.stopAll()
            }
        } onGracefulShutdown: { [listener] in
            shutdown.begin()
            listener.close()
        }
        listener.close()
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
        let channel: Channel
        do {
            channel = try Channel(loop: engine.runtime.loop, fd: fd, owned: true)
        } catch {
            engine.logger.error("could not serve a connection: \(error)")
            close(fd)
            return
        }
        let label = "conn:\(number)"
        engine.logger.info("\(label) opened by pid \(peer.pid.map(String.init) ?? "?") (uid \(peer.uid))")
        let gone = ShutdownDeadline(clock: clock, grace: .zero)
        let budget = InputBudget()
        let input = LineInput(channel: channel, maxLineBytes: settings.maxLineBytes, budget: budget, output: nil)
        let output = LineOutput(channel: channel, limit: settings.outputLimit, overflow: .cut) { [engine] in
            engine.logger.warning("\(label) cut: its peer stopped reading or hung up")
            gone.begin()
            input.stop()
        }
        // A peer that hangs up while its answers are pending has them cancelled at once.
        input.start { gone.begin() }
        let connection = Connection(engine: engine, label: label, sink: output, maxLineBytes: settings.maxLineBytes)
        await withDiscardingTaskGroup { group in
            // A shutdown stops the reading: the input ends, and the answers still come.
            group.addTask {
                await shutdown.begun()
                input.stop()
            }
            await connection.serve(input.lines, budget: budget)
            await connection.finish(grace: settings.endOfInputGrace, cutShort: [gone, shutdown])
            await output.flush(cutShortBy: [gone, shutdown])
            channel.shutdownBoth()
            group.cancelAll()
        }
        channel.close()
        engine.logger.info("\(label) closed")
    }

    /// Writes one error line (id null) to a peer that is not served, and closes it.
    static func refuse(_ fd: Int32, _ error: RPCError) {
        var line: [UInt8] = []
        RPCLine.error(id: .null, error, into: &line)
        line.append(UInt8(ascii: "\n"))
        line.withUnsafeBytes { raw in _ = send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        shutdownSocket(fd, .both)
        close(fd)
    }
}

/// The daemon's connections: numbering, the `--max-connections` bound, the idle timer, and the end of admission.
/// The connections' tasks live in the service's task group; this only counts them.
private final class Peers: Sendable {
    enum Admission {
        case admitted(Int)
        case refused(RPCError)
    }

    private struct State {
        var next = 1
        var open = 0
        /// Counts admissions, so an idle countdown knows whether a connection came and went meanwhile.
        var admissions: UInt64 = 0
        var stopped = false
    }

    private let settings: DaemonService.Settings
    private let clock: any RuntimeClock
    private let state = Mutex(State())
    /// Told whenever the last open connection closes.
    private let quiet = WaitQueue<UInt64>()

    init(settings: DaemonService.Settings, clock: any RuntimeClock) {
        self.settings = settings
        self.clock = clock
    }

    var count: Int { state.withLock { $0.open } }

    static let stopping = RPCError.application(
        "daemon_gone", "weatherd's daemon is stopping; run the command again (a new daemon starts on its own)")

    /// Admits one more connection (its number), or says why not: the daemon is full or stopping.
    func admit() -> Admission {
        state.withLock { state -> Admission in
            guard !state.stopped else { return .refused(Self.stopping) }
            guard state.open < settings.maxConnections else {
                return .refused(
                    .application(
                        "too_many_connections",
                        "weatherd serves at most \(settings.maxConnections) connections at once (--max-connections); "
                            + "try again when one has closed"))
            }
            defer { state.next += 1 }
            state.open += 1
            state.admissions += 1
            return .admitted(state.next)
        }
    }

    /// One connection has closed.
    func closed() {
        let (nowEmpty, admissions) = state.withLock { state -> (Bool, UInt64) in
            state.open -= 1
            return (state.open == 0, state.admissions)
        }
        if nowEmpty { quiet.resumeAll(admissions) }
    }

    /// Returns true once no connection has been open for `--idle-exit`, having stopped admitting any; false when
    /// `shutdown` begins first (and at once without the flag, once it does).
    func idleExit(unless shutdown: ShutdownDeadline) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await shutdown.begun()
                return false
            }
            group.addTask { await self.countDown() }
            let idle = await group.next() ?? false
            group.cancelAll()
            return idle
        }
    }

    private func countDown() async -> Bool {
        guard let limit = settings.idleExit else {
            await untilCancelled()
            return false
        }
        while !Task.isCancelled {
            let spell: UInt64? = await quiet.wait { state.withLock { $0.open == 0 ? $0.admissions : nil } }
            guard let spell else { return false }
            do { try await clock.sleep(for: limit) } catch { return false }
            if stopIfIdle(since: spell) { return true }
        }
        return false
    }

    /// At the end of an idle countdown: admits no more connections, unless one arrived since the countdown
    /// began (checked under the same lock as `admit`, so none slips in between).
    private func stopIfIdle(since spell: UInt64) -> Bool {
        state.withLock { state -> Bool in
            guard state.open == 0, state.admissions == spell, !state.stopped else { return false }
            state.stopped = true
            return true
        }
    }

    /// Admits no more connections.
    func stopAll() { state.withLock { $0.stopped = true } }
}
