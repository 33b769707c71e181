import Synchronization
import WeatherRuntime
import WeatherWire

/// A connection's input as its task reads it: the bytes the loop hands over go into the request parser, and
/// the task takes whole requests out, waiting when there is none yet.
///
/// Bounded: past `bound` unread bytes (pipelined requests the task has not come to) the owner pauses reading
/// until the task catches up. Once the last answer is written, the inbox only counts what the client still
/// sends (`startDraining`), so that closing with unread input does not reset the connection before the client
/// has read the answer.
final class HTTPInbox: Sendable {
    /// What the task is told next.
    enum Step: Sendable {
        case event(HTTPRequestParser.Event)
        /// The client ended its input (between requests, or inside one: `finish` says which).
        case ended
    }

    private struct State {
        var parser: HTTPRequestParser
        var ended = false
        var paused = false
        var draining = false
        var drained = 0
    }

    private let state: Mutex<State>
    private let waiters = WaitQueue<Void>()
    private let bound: Int

    init(limits: HTTPLimits) {
        state = Mutex(State(parser: HTTPRequestParser(limits: limits)))
        bound = limits.maxHeadBytes + limits.maxBodyBytes
    }

    /// Takes bytes read (on the loop's thread); true when reading should pause.
    func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let pause = state.withLock { state -> Bool in
            if state.draining {
                state.drained += bytes.count
                return false
            }
            state.parser.append(bytes)
            guard state.parser.bufferedBytes > bound, !state.paused else { return false }
            state.paused = true
            return true
        }
        waiters.resumeAll(())
        return pause
    }

    /// The input ended.
    func end() {
        state.withLock { $0.ended = true }
        waiters.resumeAll(())
    }

    /// Whether reading, paused for a backlog, may go on (true once, when the backlog has shrunk to half).
    func mayResume() -> Bool {
        state.withLock { state -> Bool in
            guard state.paused, state.parser.bufferedBytes <= bound / 2 else { return false }
            state.paused = false
            return true
        }
    }

    /// The next request, announcement, failure or end; nil when the waiting task is cancelled.
    func next() async -> Step? {
        while true {
            var taken: Step?
            let woke: Void? = await waiters.wait {
                taken = take()
                return taken == nil ? nil : ()
            }
            if let taken { return taken }
            guard woke != nil else { return nil }
        }
    }

    private func take() -> Step? {
        state.withLock { state -> Step? in
            if let event = state.parser.next() { return .event(event) }
            return state.ended ? .ended : nil
        }
    }

    /// The failure of input that ended inside a request, else nil.
    func finish() -> HTTPWireError? { state.withLock { $0.parser.finish() } }

    /// From now on bytes read are only counted.
    func startDraining() { state.withLock { $0.draining = true } }

    /// Returns once the client has ended its input or sent `limit` more bytes (nil when cancelled first).
    func drained(limit: Int = 65_536) async -> Void? {
        await waiters.wait { state.withLock { $0.ended || $0.drained >= limit } ? () : nil }
    }
}
