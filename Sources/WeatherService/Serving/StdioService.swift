import Foundation
import WeatherDomain
import WeatherEngine
import WeatherRuntime

/// The standalone front: one connection on standard input and output (or on another descriptor, as for a
/// command-line tool's in-process connection), served by the engine's event loop.
///
/// It ends at end of input, when stdout closes, or at shutdown (a signal). At end of input the requests already
/// read get up to `endOfInputGrace` (the upstream deadline plus a margin) to be answered: a script that closes
/// stdin after its request wants the answer. A shutdown, before or during that wait, gives what is in flight
/// (requests, then the engine's background work) `shutdownGrace` in all, so the process exits within a second
/// of a signal.
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

    package func run() async throws {
        let loop = engine.runtime.loop
        let inputChannel = try Channel(loop: loop, fd: inputFD, owned: false, direction: .read)
        let outputChannel =
            outputFD == inputFD ? inputChannel : try Channel(loop: loop, fd: outputFD, owned: false, direction: .write)
        defer {
            inputChannel.close()
            outputChannel.close()
        }
        // `stopping` bounds what is in flight once the input has ended or a shutdown began; `signalled` also
        // bounds the last flush, which at a mere end of input waits for a client that reads slowly.
        let stopping = ShutdownDeadline(clock: engine.clock, grace: shutdownGrace)
        let signalled = ShutdownDeadline(clock: engine.clock, grace: shutdownGrace)
        let budget = InputBudget()
        let closedOutput = Latch()
        let output = LineOutput(channel: outputChannel) { closedOutput.open() }
        let input = LineInput(channel: inputChannel, maxLineBytes: maxLineBytes, budget: budget, output: output)
        input.start()
        let connection = Connection(engine: engine, label: "stdio", sink: output, maxLineBytes: maxLineBytes)
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    // A closed stdout means the client is gone: stop as at a signal.
                    await closedOutput.wait()
                    guard closedOutput.isOpen else { return }
                    engine.setStopReason("stdout_closed")
                    stopping.begin()
                    signalled.begin()
                    input.stop()
                }
                await engine.ready.wait()
                await connection.serve(input.lines, budget: budget)
                engine.setStopReason("eof")
                await connection.finish(grace: endOfInputGrace, cutShort: [stopping])
                stopping.begin()
                await engine.finishBackground(by: stopping)
                await output.flush(cutShortBy: [signalled])
                group.cancelAll()
            }
        } onGracefulShutdown: {
            stopping.begin()
            signalled.begin()
            input.stop()
        }
    }
}
