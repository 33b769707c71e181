import EventLog
import Synchronization
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherWire

/// Ships every committed event of the log, in seq order and exactly once, to a NATS JetStream stream
/// (`weatherd serve --nats`).
///
/// Each event goes to `<prefix>.<log id>` (one subject per log, so a reader filters by machine and the stream's
/// per-subject checks apply), its body the log line itself without the newline (checksum and all), with
/// `Nats-Msg-Id: <log id>-<seq>` (the stream drops a repeat within its duplicate window) and
/// `Weatherd-Type: <event type>`. The first publish after each (re)connect carries
/// `Nats-Expected-Last-Subject-Sequence` (the stream sequence of the last message it holds from this log, 0 for
/// none), as does every publish sent while nothing else is in flight: the stream refuses it if anything else was
/// written to the subject meanwhile. Up to `window` publishes are in flight; each acknowledgement is checked in
/// order.
///
/// Where to start is asked of the stream, never remembered: at each (re)connect the shipper reads the last
/// message of its subject, checks that it is this log's (`Nats-Msg-Id` and the line's seq), and ships from the
/// next seq, reading the backlog from the log (`LogFollower`). The log never waits for NATS: an absent or slow
/// server only grows the lag. Any failure closes the connection and tries again after a backoff on the runtime's
/// clock (1 s doubling to 30 s); a problem that needs an operator (a stream that does not take the subject, a
/// subject holding another log's events) is one line in the log and in `service/status`, retried the same way.
package final class LogShipper: Service, Sendable {
    /// Where and how to ship.
    package struct Settings: Sendable {
        package var url: NATSURL
        package var stream: String
        package var subjectPrefix: String
        package var logID: String
        package var credentials: NATSCredentials?
        /// Publishes in flight at most.
        package var window = 256
        package var minBackoff: Duration = .seconds(1)
        package var maxBackoff: Duration = .seconds(30)

        package init(
            url: NATSURL, stream: String, subjectPrefix: String, logID: String, credentials: NATSCredentials?
        ) {
            self.url = url
            self.stream = stream
            self.subjectPrefix = subjectPrefix
            self.logID = logID
            self.credentials = credentials
        }

        /// The subject this log's events go to.
        package var subject: String { "\(subjectPrefix).\(logID)" }
    }

    private let engine: Engine
    private let settings: Settings
    /// Shared with the engine, which reads it for `service/status` and the metrics.
    private let status: ShipStatusBox
    /// The last event the stream acknowledged in this run (its seq and stream sequence): where the next connection
    /// checks that what was in flight when one failed is in the stream without a hole (`hole`).
    private let acknowledged = Mutex<(seq: Int64, streamSeq: Int64)?>(nil)

    package init(engine: Engine, settings: Settings) {
        self.engine = engine
        self.settings = settings
        let status = ShipStatusBox(
            ShipStatus(
                url: settings.url.description, stream: settings.stream, subject: settings.subject,
                logID: settings.logID))
        self.status = status
        engine.setShipStatus { status.withLock { $0 } }
    }

    /// The facts `service/status` shows.
    package var current: ShipStatus { status.withLock { $0 } }

    package func run() async throws {
        try await cancelOnGracefulShutdown { [self] in try await shipUntilCancelled() }
    }

    private func shipUntilCancelled() async throws {
        var backoff = settings.minBackoff
        while !Task.isCancelled {
            do {
                try await shipOnce()
            } catch is CancellationError {
                return
            } catch {
                if Task.isCancelled { return }
                let line = "\(error)"
                let (changed, worked) = status.withLock { status -> (Bool, Bool) in
                    defer {
                        status.connected = false
                        status.problem = line
                    }
                    return (status.problem != line, status.connected)
                }
                if changed { engine.logger.warning("shipping to \(settings.url) stream \(settings.stream): \(line)") }
                // A connection that shipped starts the backoff over.
                if worked { backoff = settings.minBackoff }
            }
            try await engine.clock.sleep(for: backoff)
            backoff = min(backoff * 2, settings.maxBackoff)
        }
    }

    /// One connection's shipping, until it fails.
    private func shipOnce() async throws {
        let jetStream = try await JetStream.connect(
            to: settings.url, credentials: settings.credentials, runtime: engine.runtime)
        let connection = jetStream.connection
        defer { connection.close() }
        try await ensureStream(jetStream)
        let (shippedSeq, streamSeq) = try await resumePoint(jetStream)
        let hole = try await hole(jetStream, through: shippedSeq)
        if shippedSeq > 0 { acknowledged.withLock { $0 = (shippedSeq, streamSeq) } }
        status.withLock { status in
            status.shippedSeq = shippedSeq
            status.connected = true
            status.problem = hole
        }
        if let hole { engine.logger.error("shipping to \(settings.url) stream \(settings.stream): \(hole)") }
        engine.logger.info(
            "shipping to \(settings.url) stream \(settings.stream) subject \(settings.subject) from seq "
                + "\(shippedSeq + 1)")
        let window = ShipWindow(capacity: settings.window, lastStreamSeq: streamSeq)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                try await engine.follower.follow(after: shippedSeq, room: { await window.room() }) { envelope in
                    try send(envelope, on: connection, window: window)
                }
            }
            group.addTask { [self] in try await acknowledge(window) }
            group.addTask {
                await connection.waitForEnd()
                throw connection.endReason ?? NATSError.closed("ended")
            }
            _ = try await group.next()
            group.cancelAll()
        }
    }

    /// Publishes one event (the line as the log holds it).
    private func send(_ envelope: EventEnvelope, on connection: NATSConnection, window: ShipWindow) throws {
        var line: [UInt8] = []
        let crc = EnvelopeCodec.encodeStripped(envelope, data: envelope.data, into: &line)
        guard crc == envelope.crc else {
            throw ShipProblem("seq \(envelope.seq) is no longer as it was committed (its payload was compacted)")
        }
        line.removeLast()
        try window.publish(seq: envelope.seq) { expected in
            var fields = [
                (LogMessageID.header, LogMessageID.of(logID: settings.logID, seq: envelope.seq)),
                ("Weatherd-Type", envelope.type),
            ]
            // With nothing in flight the stream's last sequence on the subject is known: let the stream check it.
            if let expected { fields.append(("Nats-Expected-Last-Subject-Sequence", String(expected))) }
            return try connection.request(settings.subject, headers: NATSHeaders(fields), payload: line)
        }
    }

    /// Checks each acknowledgement, oldest first; the first that is not a new message in order ends the
    /// connection's shipping.
    private func acknowledge(_ window: ShipWindow) async throws {
        var previousStreamSeq: Int64 = 0
        while let entry = await window.oldest() {
            let answer: NATSMessage
            do {
                answer = try await entry.reply.answer()
            } catch {
                guard error.kind == "nats_no_responders" else { throw error }
                throw ShipProblem(
                    "no stream answers for \(settings.subject) (was the stream \(settings.stream) deleted, or is its "
                        + "leader being elected?); at the next connect weatherd asks again, and a stream that is gone is "
                        + "made again and the log ships from its start")
            }
            let ack = try JetStream.pubAck(answer)
            guard ack.stream == settings.stream, ack.streamSeq > previousStreamSeq else {
                throw ShipProblem("the acknowledgement of seq \(entry.seq) is out of order (\(ack))")
            }
            previousStreamSeq = ack.streamSeq
            window.acknowledged(streamSeq: ack.streamSeq)
            acknowledged.withLock { $0 = (entry.seq, ack.streamSeq) }
            status.withLock { status in
                status.shippedSeq = entry.seq
                if !ack.duplicate { status.published += 1 }
            }
        }
    }

    /// Makes sure the stream exists and takes the subject: creates it (on `<prefix>.>`) when absent.
    private func ensureStream(_ jetStream: JetStream) async throws {
        guard let subjects = try await jetStream.streamSubjects(settings.stream) else {
            try await jetStream.createStream(settings.stream, subjects: ["\(settings.subjectPrefix).>"])
            engine.logger.info("created the JetStream stream \(settings.stream) on \(settings.subjectPrefix).>")
            return
        }
        guard subjects.contains(where: { Self.subject(settings.subject, matches: $0) }) else {
            throw ShipProblem(
                "the stream \(settings.stream) does not take \(settings.subject) (its subjects: "
                    + "\(subjects.joined(separator: ", "))); add \(settings.subjectPrefix).> to it")
        }
    }

    /// The seq of this log's last event the stream holds (0: none) and its stream sequence (0: none), once it is
    /// checked to be this log's: its id, its seq, and its chain equal to the log's line of that seq (a restored
    /// copy of this log whose original still ships holds the same id but another line there).
    private func resumePoint(_ jetStream: JetStream) async throws -> (Int64, Int64) {
        guard let last = try await jetStream.lastMessage(settings.stream, subject: settings.subject) else {
            return (0, 0)
        }
        guard let seq = last.seq(ofLog: settings.logID), seq > 0 else {
            let id = last.logMessageID
            throw ShipProblem(
                "the last message on \(settings.subject) (stream seq \(last.streamSeq)) is not from log "
                    + "\(settings.logID) (Nats-Msg-Id \(id.isEmpty ? "missing" : id))")
        }
        let line: JSONValue
        do {
            line = try JSONValue.parse(last.data)
        } catch {
            throw ShipProblem("the last message on \(settings.subject) is not a log line: \(error)")
        }
        let stated = line["seq"]?.intValue
        guard stated == seq else {
            throw ShipProblem("the last message on \(settings.subject) says seq \(stated ?? 0) but its id says \(seq)")
        }
        let logLast = engine.follower.lastSeq
        guard seq <= logLast else {
            throw ShipProblem(
                "the stream holds seq \(seq) of log \(settings.logID) but the log ends at seq \(logLast): "
                    + "another data dir ships under this log id")
        }
        if let own = try engine.follower.envelope(at: seq), line["chain"]?.stringValue != CRC32C.hexString(own.chain) {
            throw ShipProblem(
                "the stream's seq \(seq) of log \(settings.logID) is not this log's line \(seq): another data dir "
                    + "ships under this log id (a restored copy, while its original ships on?)")
        }
        return (seq, last.streamSeq)
    }

    /// What is wrong with the subject's messages after the last one this run saw acknowledged, up to `last` (the
    /// seq the stream now ends at); nil when they go on seq by seq. Publishes are pipelined: one answered "no
    /// responders" while the stream's leader changed, and a later one that a new leader stored, would leave a hole
    /// the last message alone cannot show. A hole cannot be mended (the stream keeps the order it was given), so it
    /// is said in a sentence, in the status and the log, and shipping goes on after `last`.
    private func hole(_ jetStream: JetStream, through last: Int64) async throws -> String? {
        guard let (seq, streamSeq) = acknowledged.withLock({ $0 }), last > seq else { return nil }
        var expected = seq + 1
        var from = streamSeq + 1
        while expected <= last,
            let message = try await jetStream.nextMessage(settings.stream, subject: settings.subject, from: from)
        {
            let found = message.seq(ofLog: settings.logID) ?? 0
            guard found == expected else {
                return found > expected
                    ? "the stream lacks seq \(expected)\(found - 1 > expected ? "…\(found - 1)" : "") of log "
                        + "\(settings.logID): a publish in flight was lost while a later one was stored (a stream "
                        + "leader changing?); the trail has a hole there, and shipping goes on from seq \(last + 1)"
                    : "the stream holds seq \(found) of log \(settings.logID) again after seq \(expected - 1) (stream seq "
                        + "\(message.streamSeq)); shipping goes on from seq \(last + 1)"
            }
            expected += 1
            from = message.streamSeq + 1
        }
        return nil
    }

    /// Whether `subject` is matched by the stream subject `filter` (`*` one token, `>` the rest).
    static func subject(_ subject: String, matches filter: String) -> Bool {
        let tokens = subject.split(separator: ".")
        let wanted = filter.split(separator: ".")
        for (index, token) in wanted.enumerated() {
            if token == ">" { return tokens.count > index }
            guard index < tokens.count, token == "*" || token == tokens[index] else { return false }
        }
        return tokens.count == wanted.count
    }
}

/// The shipper's status, read from other threads.
final class ShipStatusBox: Sendable {
    private let value: Mutex<ShipStatus>

    init(_ status: ShipStatus) { value = Mutex(status) }

    func withLock<T>(_ body: (inout ShipStatus) -> T) -> T { value.withLock { body(&$0) } }
}

/// Why shipping stopped, in a sentence an operator can act on.
struct ShipProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
