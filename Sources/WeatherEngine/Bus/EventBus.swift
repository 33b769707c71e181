import EventLog
import Synchronization
import WeatherRuntime

/// In-process publish/subscribe of committed events, in log order, to every subscriber.
///
/// The log writer publishes each durable batch from its thread. Every subscriber has a bounded
/// buffer; one that falls behind is cut off with a `lagged` marker naming the last seq it was
/// given. Followers subscribe through `LogFollower`, which then catches up from the log and
/// subscribes again, so no follower misses an event.
package final class EventBus: Sendable {
    /// What a subscriber receives.
    package enum Message: Sendable, Equatable {
        case event(EventEnvelope)
        /// The subscriber was cut off; it received every event up to `lastSeq`.
        case lagged(lastSeq: Int64)
    }

    private struct State {
        var subscribers: [UInt64: BusSubscription] = [:]
        var nextID: UInt64 = 0
        var lastSeq: Int64
    }

    private let state: Mutex<State>

    /// Creates a bus whose log ends at `lastSeq`.
    package init(lastSeq: Int64 = 0) { state = Mutex(State(lastSeq: lastSeq)) }

    /// Subscribes to every event committed after this call.
    ///
    /// - Parameter capacity: how many undelivered messages may wait before the subscriber is cut off.
    /// - Returns: the subscription, and the seq of the last event committed before it began.
    package func subscribe(capacity: Int = 4096) -> (subscription: BusSubscription, afterSeq: Int64) {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            let subscription = BusSubscription(id: id, capacity: capacity, lastSeq: state.lastSeq, bus: self)
            state.subscribers[id] = subscription
            return (subscription, state.lastSeq)
        }
    }

    /// Delivers a committed batch to every subscriber. Called by the log writer, in seq order.
    package func publish(_ batch: [EventEnvelope]) {
        guard let last = batch.last else { return }
        state.withLock { state in
            state.lastSeq = last.seq
            for (id, subscriber) in state.subscribers where !subscriber.offer(batch) {
                state.subscribers[id] = nil
            }
        }
    }

    /// The seq of the last event published (or of the log's end when the bus was made).
    package var lastSeq: Int64 { state.withLock { $0.lastSeq } }

    /// The number of live subscribers.
    package var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    func remove(_ id: UInt64) { _ = state.withLock { $0.subscribers.removeValue(forKey: id) } }
}

/// One subscriber's bounded queue, read as an async sequence.
package final class BusSubscription: AsyncSequence, AsyncIteratorProtocol, Sendable {
    package typealias Element = EventBus.Message

    private struct State {
        var buffer: [EventBus.Message] = []
        var head = 0
        var finished = false
        var lastSeq: Int64
    }

    private let id: UInt64
    private let capacity: Int
    private let state: Mutex<State>
    /// Told of every change: a message queued, the subscription ended.
    private let changes = WaitQueue<Void>()
    private weak let bus: EventBus?

    init(id: UInt64, capacity: Int, lastSeq: Int64, bus: EventBus) {
        self.id = id
        self.capacity = Swift.max(1, capacity)
        self.state = Mutex(State(lastSeq: lastSeq))
        self.bus = bus
    }

    /// Queues a batch; returns false when the subscriber is (now) cut off.
    func offer(_ batch: [EventEnvelope]) -> Bool {
        let (queued, keep) = state.withLock { state -> (Bool, Bool) in
            guard !state.finished else { return (false, false) }
            if state.buffer.count - state.head + batch.count > capacity {
                state.buffer.append(.lagged(lastSeq: state.lastSeq))
                state.finished = true
                return (true, false)
            }
            for envelope in batch { state.buffer.append(.event(envelope)) }
            state.lastSeq = batch.last?.seq ?? state.lastSeq
            return (true, true)
        }
        if queued { changes.resumeAll(()) }
        return keep
    }

    private static func take(_ state: inout State) -> EventBus.Message? {
        guard state.head < state.buffer.count else { return nil }
        let message = state.buffer[state.head]
        state.head += 1
        if state.head == state.buffer.count {
            state.buffer.removeAll(keepingCapacity: true)
            state.head = 0
        }
        return message
    }

    /// The next message; nil once the subscription is cancelled or its lagged marker was read.
    package func next() async -> EventBus.Message? {
        while true {
            let ready: (EventBus.Message?)? = state.withLock { state in
                if let message = Self.take(&state) { return .some(message) }
                return state.finished ? .some(nil) : nil
            }
            if let ready { return ready }
            let changed: Void? = await changes.wait {
                state.withLock { $0.finished || $0.head < $0.buffer.count } ? () : nil
            }
            if changed == nil {
                cancel()
                return nil
            }
        }
    }

    package func makeAsyncIterator() -> BusSubscription { self }

    /// Ends the subscription; a waiting `next()` returns nil.
    package func cancel() {
        state.withLock { state in
            state.finished = true
            state.buffer.removeAll()
            state.head = 0
        }
        changes.resumeAll(())
        bus?.remove(id)
    }
}
