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

/// A JSON-RPC client over one connected stream socket: the shared daemon's, or one end of a socket pair served
/// in this process (`ClientConnection`). What the command-line tools use.
///
/// `call` sends one request and waits for its answer; the event loop reads the answers, matches them to their
/// calls by id, and hands every notification (an `events/event` push, an alert) to `onNotification`, in the
/// order they arrive. When the connection ends, or the server answers with an error that has no id
/// (`too_many_connections`, `daemon_gone`), every call waiting and every later one fails with that error.
package final class LineClient: Sendable {
    private struct State {
        var nextID: Int64 = 1
        var waiting: [Int64: CheckedContinuation<JSONValue, any Error>] = [:]
        /// Why the connection ended; set once.
        var ended: RPCError?
    }

    private let channel: Channel
    private let state = Mutex(State())
    private let splitter: Mutex<LineSplitter>
    private let onNotification: @Sendable (_ method: String, _ params: JSONValue) -> Void
    /// Opens once the server has closed the connection (or it failed).
    private let readerDone = Latch()

    /// Takes over `fd` (closed by `close`) and starts reading it on `loop`.
    package init(
        fd: Int32, loop: EventLoop, maxLineBytes: Int = 16 << 20,
        onNotification: @escaping @Sendable (_ method: String, _ params: JSONValue) -> Void = { _, _ in }
    ) throws(SystemError) {
        UnixSocket.preventSIGPIPE(fd)
        channel = try Channel(loop: loop, fd: fd, owned: true)
        self.onNotification = onNotification
        splitter = Mutex(LineSplitter(maxLineBytes: maxLineBytes))
        channel.onOutput { [weak self] event in
            if case .failed = event { self?.end(Self.closed) }
        }
        channel.startReading { [weak self] input in self?.read(input) }
    }

    /// The error a call gets once the connection has ended without a word from the server.
    package static let closed = RPCError.application(
        "daemon_gone", "weatherd's daemon closed the connection before answering; run the command again")

    /// Sends `method` with `params` and returns its result. Cancelling the calling task gives up on the
    /// answer at once and asks the server to cancel the request (`$/cancelRequest`).
    ///
    /// - Throws: the server's `RPCError`, `closed` when the connection ended first, or `CancellationError`.
    package func call(_ method: String, _ params: [String: JSONValue] = [:]) async throws -> JSONValue {
        let id = state.withLock { state -> Int64 in
            defer { state.nextID += 1 }
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Checked under the lock that `giveUp` takes: a cancel either finds the call waiting, or came
                // first and is seen here (the task is marked cancelled before its handler runs).
                let refusal = state.withLock { state -> (any Error)? in
                    if let ended = state.ended { return ended }
                    if Task.isCancelled { return CancellationError() }
                    state.waiting[id] = continuation
                    return nil
                }
                if let refusal { return continuation.resume(throwing: refusal) }
                let request: JSONValue = [
                    "jsonrpc": "2.0", "id": .int(id), "method": .string(method), "params": .object(params),
                ]
                send(request)
            }
        } onCancel: {
            giveUp(id)
        }
    }

    /// Gives up on call `id`, if it is still waiting: its caller gets `CancellationError`, and the server is asked
    /// to cancel the request.
    private func giveUp(_ id: Int64) {
        guard let waiting = state.withLock({ $0.waiting.removeValue(forKey: id) }) else { return }
        waiting.resume(throwing: CancellationError())
        send(["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": .int(id)]])
    }

    /// Sends one message as a line (queued whole: lines never interleave); a failed send ends the connection.
    private func send(_ message: JSONValue) {
        if !channel.write(Array(message.jsonString.utf8) + [UInt8(ascii: "\n")]) { end(Self.closed) }
    }

    /// Ends what this client sends (a half-close): the server answers what it has and closes.
    package func finishSending() { channel.shutdownOutputWhenFlushed() }

    /// Closes the connection.
    package func close() async {
        channel.shutdownBoth()
        channel.close()
        end(Self.closed)
        readerDone.open()
    }

    /// Waits until the server has closed the connection.
    package func waitForEnd() async { await readerDone.wait() }

    /// What the loop read (on its thread).
    private func read(_ input: Channel.Input) {
        var messages: [JSONValue] = []
        let handle: (LineSplitter.Item) -> Void = { item in
            guard case .line(let bytes) = item, let message = try? JSONValue.parse(bytes) else { return }
            messages.append(message)
        }
        let ended = splitter.withLock { splitter -> Bool in
            switch input {
            case .bytes(let bytes):
                splitter.feed(bytes, handle)
                return false
            case .end:
                splitter.finish(handle)
                return true
            }
        }
        for message in messages { receive(message) }
        if ended {
            end(Self.closed)
            readerDone.open()
        }
    }

    private func receive(_ message: JSONValue) {
        if let method = message["method"]?.stringValue, message["id"] == nil {
            return onNotification(method, message["params"] ?? .null)
        }
        let outcome: Result<JSONValue, any Error> =
            if let error = message["error"] {
                .failure(
                    RPCError(
                        code: Int(error["code"]?.intValue ?? 0), kind: error["data"]?["kind"]?.stringValue ?? "",
                        message: error["message"]?.stringValue ?? ""))
            } else {
                .success(message["result"] ?? .null)
            }
        guard let id = message["id"]?.intValue else {
            // An error without an id ends the connection (the server refused it or is going away).
            if case .failure(let error as RPCError) = outcome { end(error) }
            return
        }
        let continuation = state.withLock { $0.waiting.removeValue(forKey: id) }
        continuation?.resume(with: outcome)
    }

    private func end(_ error: RPCError) {
        let waiting = state.withLock { state -> [CheckedContinuation<JSONValue, any Error>] in
            if state.ended == nil { state.ended = error }
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume(throwing: error) }
    }
}
