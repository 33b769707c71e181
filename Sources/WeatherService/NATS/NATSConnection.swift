import Synchronization
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One connection to a NATS server, served by the event loop (no thread of its own): the handshake (`INFO`,
/// `CONNECT`, `PING`/`PONG`), requests whose answers come to one inbox subscription, and the server's `PING`s.
///
/// A request is sent at once, in call order, and its answer awaited later (`NATSReply`), so a caller can keep
/// several in flight (a window). Input is bounded by the parser's limits; a server that sends garbage or an
/// oversize frame, says `-ERR`, or hangs up ends the connection, and every answer still awaited fails with the
/// reason. A connection is not reopened: its owner connects anew (with backoff).
package final class NATSConnection: Sendable {
    private struct State {
        var parser: NATSParser
        var waiting: [String: Waiting] = [:]
        var nextToken: UInt64 = 1
        var ended: NATSError?
        var handshakeDone = false
        /// The server's first `INFO`.
        var info: ServerInfo?
    }

    private struct Waiting {
        let reply: Promise<Result<NATSMessage, NATSError>>
        let timer: LoopTimer?
    }

    /// What the server said of itself (`INFO`), once the handshake is done.
    package struct ServerInfo: Sendable {
        /// Whether it has JetStream on.
        package var jetStream: Bool
    }

    private let channel: Channel
    private let clock: any RuntimeClock
    private let state: Mutex<State>
    private let credentials: NATSCredentials?
    /// The subject prefix of this connection's inbox (`_INBOX.<random>.`).
    private let inbox: String
    private let requestTimeout: Duration
    private let handshake = Promise<Result<ServerInfo, NATSError>>()
    /// Opens once the connection has ended.
    private let endedLatch = Latch()

    private init(fd: Int32, runtime: Runtime, credentials: NATSCredentials?, requestTimeout: Duration)
        throws(SystemError)
    {
        channel = try Channel(loop: runtime.loop, fd: fd, owned: true)
        clock = runtime.clock
        self.credentials = credentials
        self.requestTimeout = requestTimeout
        state = Mutex(State(parser: NATSParser(maxControlLine: 64 * 1024, maxPayload: 8 << 20)))
        var random = SystemRandomNumberGenerator()
        inbox = "_INBOX." + String(random.next(), radix: 36) + String(random.next(), radix: 36) + "."
    }

    /// Connects to `endpoint`, does the handshake and subscribes the inbox.
    ///
    /// - Parameters:
    ///   - timeout: the deadline of the connect and of the handshake, on the runtime's clock.
    ///   - requestTimeout: how long an answer to a request is awaited.
    /// - Throws: `NATSError` (`nats_unreachable`, `nats_server_error` for refused credentials, `nats_timeout`).
    package static func connect(
        to endpoint: MetricsEndpoint, credentials: NATSCredentials?, runtime: Runtime,
        timeout: Duration = .seconds(10), requestTimeout: Duration = .seconds(10)
    ) async throws(NATSError) -> NATSConnection {
        let fd = try await TCPConnect.connect(to: endpoint, runtime: runtime, timeout: timeout)
        let connection: NATSConnection
        do {
            connection = try NATSConnection(
                fd: fd, runtime: runtime, credentials: credentials, requestTimeout: requestTimeout)
        } catch {
            Descriptor.close(fd)
            throw .unreachable("\(endpoint)", "\(error)")
        }
        connection.start()
        let timer = runtime.clock.schedule(at: runtime.clock.deadline(after: timeout), on: runtime.loop) {
            connection.end(.timeout("the handshake"))
        }
        let outcome = await connection.handshake.wait()
        timer.cancel()
        switch outcome {
        case .success: return connection
        case .failure(let error):
            connection.close()
            throw error
        }
    }

    /// What the server said of itself.
    package var serverInfo: ServerInfo? {
        guard case .success(let info) = handshake.current else { return nil }
        return info
    }

    /// Why the connection ended; nil while it is open.
    package var endReason: NATSError? { state.withLock { $0.ended } }

    /// Returns once the connection has ended (its owner then reconnects).
    package func waitForEnd() async { await endedLatch.wait() }

    private func start() {
        channel.onOutput { [weak self] event in
            if case .failed(let code) = event { self?.end(.closed(String(cString: strerror(code)))) }
        }
        channel.startReading { [weak self] input in self?.read(input) }
    }

    // MARK: Requests

    /// Sends a message to `subject` with an answer expected, at once; the answer is awaited on the result.
    ///
    /// - Throws: `NATSError` when the connection has ended.
    package func request(_ subject: String, headers: NATSHeaders? = nil, payload: [UInt8]) throws(NATSError)
        -> NATSReply
    {
        let reply = Promise<Result<NATSMessage, NATSError>>()
        let token = try state.withLock { state throws(NATSError) -> String in
            if let ended = state.ended { throw ended }
            defer { state.nextToken += 1 }
            return String(state.nextToken)
        }
        let timer = clock.schedule(at: clock.deadline(after: requestTimeout), on: channel.loop) { [weak self] in
            self?.answer(token, .failure(.timeout("a request to \(subject)")))
        }
        let refused = state.withLock { state -> NATSError? in
            if let ended = state.ended { return ended }
            state.waiting[token] = Waiting(reply: reply, timer: timer)
            return nil
        }
        if let refused {
            timer.cancel()
            throw refused
        }
        send(.publish(subject: subject, replyTo: inbox + token, headers: headers, payload: payload))
        return NATSReply(reply: reply, subject: subject)
    }

    /// Sends a request and waits for its answer.
    ///
    /// - Throws: `NATSError`: the connection ended, no answer in time, or nothing answers the subject.
    package func call(_ subject: String, payload: [UInt8] = []) async throws(NATSError) -> NATSMessage {
        try await request(subject, payload: payload).answer()
    }

    /// Closes the connection; every answer awaited fails.
    package func close() {
        end(.closed("closed by weatherd"))
        channel.shutdownBoth()
        channel.close()
    }

    private func send(_ command: NATSClientCommand) {
        if !channel.write(command.bytes) { end(.closed("the server is gone")) }
    }

    private func answer(_ token: String, _ outcome: Result<NATSMessage, NATSError>) {
        guard let waiting = state.withLock({ $0.waiting.removeValue(forKey: token) }) else { return }
        waiting.timer?.cancel()
        waiting.reply.fulfill(outcome)
    }

    // MARK: Input

    private func read(_ input: Channel.Input) {
        guard case .bytes(let bytes) = input else {
            return end(.closed("the server closed the connection"))
        }
        let parsed = state.withLock { state -> Result<[NATSServerOperation], NATSProtocolError> in
            guard state.ended == nil else { return .success([]) }
            do throws(NATSProtocolError) {
                return .success(try state.parser.feed(bytes))
            } catch {
                return .failure(error)
            }
        }
        switch parsed {
        case .failure(let error): end(.protocolError(error))
        case .success(let operations): for operation in operations { handle(operation) }
        }
    }

    private func handle(_ operation: NATSServerOperation) {
        switch operation {
        case .ping: send(.pong)
        case .ok: break
        case .info(let json): info(json)
        case .pong:
            let info = state.withLock { state -> ServerInfo? in
                defer { state.handshakeDone = true }
                return state.handshakeDone ? nil : state.info
            }
            if let info { handshake.fulfill(.success(info)) }
        case .error(let text): end(.serverError(text))
        case .message(let message):
            guard message.subject.hasPrefix(inbox) else { return }
            let token = String(message.subject.dropFirst(inbox.count))
            if message.headers?.status == 503, message.payload.isEmpty {
                answer(token, .failure(.noResponders(message.subject)))
            } else {
                answer(token, .success(message))
            }
        }
    }

    /// The server's `INFO`: the first starts the handshake; later ones (cluster changes) are noted.
    private func info(_ json: String) {
        let value: JSONValue
        do {
            value = try JSONValue.parse(Array(json.utf8))
        } catch {
            return end(.unexpectedAnswer("the server's INFO is not JSON: \(error)"))
        }
        let info = ServerInfo(jetStream: value["jetstream"]?.boolValue ?? false)
        let first = state.withLock { state -> Bool in
            defer { if state.info == nil { state.info = info } }
            return state.info == nil
        }
        guard first else { return }
        if value["headers"]?.boolValue == false {
            return end(.unexpectedAnswer("the NATS server does not support headers (it is older than 2.2)"))
        }
        var options: [String: JSONValue] = [
            "verbose": false, "pedantic": false, "headers": true, "no_responders": true, "lang": "swift",
            "version": .string(Engine.version), "protocol": 1, "name": "weatherd",
        ]
        credentials?.add(to: &options)
        send(.connect(JSONValue.object(options).jsonString))
        send(.subscribe(subject: inbox + "*", sid: "1"))
        send(.ping)
    }

    private func end(_ error: NATSError) {
        let waiting = state.withLock { state -> [Waiting]? in
            guard state.ended == nil else { return nil }
            state.ended = error
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        guard let waiting else { return }
        handshake.fulfill(.failure(error))
        for entry in waiting {
            entry.timer?.cancel()
            entry.reply.fulfill(.failure(error))
        }
        channel.shutdownBoth()
        endedLatch.open()
    }
}

/// The answer to one request, awaited after it was sent.
package struct NATSReply: Sendable {
    fileprivate let reply: Promise<Result<NATSMessage, NATSError>>
    /// The subject the request went to.
    package let subject: String

    /// The answer.
    ///
    /// - Throws: `NATSError`: the connection ended, no answer in time, or nothing answers the subject.
    package func answer() async throws(NATSError) -> NATSMessage { try await reply.wait().get() }
}
