import Foundation
import WeatherDomain
import WeatherEngine
import WeatherRuntime

/// The standalone front: one connection on standard input and output (or on another descriptor, as for a
/// command-line tool's in-process connection).
///
/// It ends at end of input, when stdout closes, or when its task is cancelled (a signal). At end of input
/// the requests already read get up to `endOfInputGrace` (the upstream deadline plus a margin) to be
/// answered: a script that closes stdin after its request wants the answer. A shutdown, before or during
/// that wait, gives what is in flight (requests, then the engine's background work) `shutdownGrace` in all,
/// so the process exits within a second of a signal.
package struct StdioService: Service {
    let engine: Engine
    let maxLineBytes: Int
    let endOfInputGrace: Duration
    let shutdownGrace: Duration
    let inputFD: Int32
    let outputFD: Int32

    package init(
        engine: Engine, maxLineBytes: Int, endOfInputGrace: Duration, shutdownGrace: Duration = .milliseconds(500),
        input: Int32 = 0, output: Int32 = 1
    ) {
        self.engine = engine
        self.maxLineBytes = maxLineBytes
        self.endOfInputGrace = endOfInputGrace
        self.shutdownGrace = shutdownGrace
        inputFD = input
        outputFD = output
    }

    package func run() async {
        let input = AsyncStream<LineSplitter.Item>.makeStream()
        let stopping = ShutdownDeadline(clock: engine.clock, grace: shutdownGrace)
        let output = StandardOutput(fd: outputFD) { [engine] in
            engine.setStopReason("stdout_closed")
            stopping.begin()
            input.continuation.finish()
        }
        let budget = InputBudget()
        StandardInput(fd: inputFD, maxLineBytes: maxLineBytes).start(
            budget: budget, waitForRoom: { output.waitForRoom() }, into: input.continuation)
        let connection = Connection(engine: engine, label: "stdio", sink: output, maxLineBytes: maxLineBytes)
        await withTaskCancellationHandler {
            await shieldedFromCancellation { [engine, endOfInputGrace] in
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await output.run() }
                    await engine.ready.wait()
                    await connection.serve(input.stream, budget: budget)
                    engine.setStopReason("eof")
                    await connection.finish(grace: endOfInputGrace, cutShort: [stopping])
                    stopping.begin()
                    await engine.finishBackground(by: stopping)
                    await output.flush()
                    output.finish()
                }
            }
        } onCancel: {
            stopping.begin()
            input.continuation.finish()
        }
    }
}
