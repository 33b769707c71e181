import Foundation
import WeatherDomain
import WeatherEngine

/// The standalone front: one connection on standard input and output (or on another descriptor, as for a
/// command-line tool's in-process connection).
///
/// It ends at end of input, when stdout closes, or at a graceful shutdown (a signal). At end of input
/// the requests already read get up to `endOfInputGrace` (the upstream deadline plus a margin) to be
/// answered: a script that closes stdin after its request wants the answer. A signal during that wait
/// cuts it to 1 s. Then the engine's background work gets the rest of that bound.
public struct StdioService: Service {
    let engine: Engine
    let maxLineBytes: Int
    let endOfInputGrace: Duration
    let inputFD: Int32
    let outputFD: Int32

    public init(engine: Engine, maxLineBytes: Int, endOfInputGrace: Duration, input: Int32 = 0, output: Int32 = 1) {
        self.engine = engine
        self.maxLineBytes = maxLineBytes
        self.endOfInputGrace = endOfInputGrace
        inputFD = input
        outputFD = output
    }

    public func run(shutdown: Latch) async {
        let input = AsyncStream<LineSplitter.Item>.makeStream()
        let stdoutClosed = Latch()
        let output = StandardOutput(fd: outputFD) { [engine] in
            engine.setStopReason("stdout_closed")
            stdoutClosed.open()
            input.continuation.finish()
        }
        let budget = InputBudget()
        StandardInput(fd: inputFD, maxLineBytes: maxLineBytes).start(
            budget: budget, waitForRoom: { output.waitForRoom() }, into: input.continuation)
        let connection = Connection(engine: engine, label: "stdio", sink: output, maxLineBytes: maxLineBytes)
        let stopReading = Task {
            await shutdown.wait()
            input.continuation.finish()
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await output.run() }
            await engine.ready.wait()
            await connection.serve(input.stream, budget: budget)
            engine.setStopReason("eof")
            let grace = shutdown.isOpen || stdoutClosed.isOpen ? Duration.seconds(1) : endOfInputGrace
            await connection.finish(grace: grace, cutShort: [(shutdown, .seconds(1))])
            await engine.finishBackground(grace: .seconds(1))
            await output.flush()
            output.finish()
        }
        stopReading.cancel()
    }
}
