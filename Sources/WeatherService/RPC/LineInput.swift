import Synchronization
import WeatherEngine
import WeatherRuntime

/// A connection's input lines, read on the event loop: each chunk is split into lines (`LineSplitter`) and each
/// line handed on, in order, once it has its share of `budget` and the output has room; until then the lines are
/// held and the channel is not read. So a client that floods requests, or that does not read its answers, is
/// held back at its pipe or socket, and weatherd holds at most the budget, one chunk and one partial line.
package final class LineInput: Sendable {
    private struct State {
        var splitter: LineSplitter
        /// Lines read and not yet handed on: those of `held` from `head` on.
        var held: [LineSplitter.Item] = []
        var head = 0
        var ended = false
        var finished = false
    }

    private let channel: Channel
    private let budget: InputBudget
    private let output: LineOutput?
    private let continuation: AsyncStream<LineSplitter.Item>.Continuation
    /// The lines, in arrival order; ends at the end of the input.
    package let lines: AsyncStream<LineSplitter.Item>
    private let state: Mutex<State>

    /// Reads `channel` for lines of at most `maxLineBytes`, within `budget`, and while `output` (when given) has
    /// room.
    package init(channel: Channel, maxLineBytes: Int, budget: InputBudget, output: LineOutput?) {
        self.channel = channel
        self.budget = budget
        self.output = output
        (lines, continuation) = AsyncStream<LineSplitter.Item>.makeStream()
        state = Mutex(State(splitter: LineSplitter(maxLineBytes: maxLineBytes)))
    }

    /// Starts reading; `onHangup` is told when the peer hangs up (not merely ends its input).
    package func start(onHangup: (@Sendable () -> Void)? = nil) {
        let wake: @Sendable () -> Void = { [weak self, loop = channel.loop] in
            guard let input = self else { return }
            loop.execute { input.deliver() }
        }
        budget.onGiveBack(wake)
        output?.onRoom(wake)
        channel.startReading(onHangup: onHangup) { [weak self] input in self?.receive(input) }
    }

    /// Ends the lines now (a shutdown that stops taking requests): lines held are dropped, the stream ends.
    package func stop() {
        channel.pauseReading()
        let first = state.withLock { state -> Bool in
            state.held = []
            state.head = 0
            state.ended = true
            defer { state.finished = true }
            return !state.finished
        }
        if first { continuation.finish() }
    }

    /// A chunk or the end, on the loop's thread.
    private func receive(_ input: Channel.Input) {
        state.withLock { state in
            switch input {
            case .bytes(let bytes): state.splitter.feed(bytes) { state.held.append($0) }
            case .end:
                state.splitter.finish { state.held.append($0) }
                state.ended = true
            }
        }
        deliver()
    }

    /// Hands on the lines held while the budget and the output allow; reads on once none is held.
    private func deliver() {
        while true {
            let next = state.withLock { state -> LineSplitter.Item? in
                guard !state.finished, state.head < state.held.count else { return nil }
                let first = state.held[state.head]
                guard output?.hasRoom ?? true, budget.allows(bytes: first.byteCount) else { return nil }
                budget.take(bytes: first.byteCount)
                state.head += 1
                if state.head == state.held.count {
                    state.held.removeAll(keepingCapacity: true)
                    state.head = 0
                }
                return first
            }
            guard let next else { break }
            if case .terminated = continuation.yield(next) {
                // Nobody reads the lines any more (the connection ended): give the share back and stop.
                budget.give(bytes: next.byteCount)
                return stop()
            }
        }
        let (drained, end) = state.withLock { state -> (Bool, Bool) in
            let drained = state.held.isEmpty
            let end = drained && state.ended && !state.finished
            if end { state.finished = true }
            return (drained, end)
        }
        if end {
            continuation.finish()
        } else if drained {
            channel.resumeReading()
        } else {
            channel.pauseReading()
        }
    }
}
