import Dispatch
import Foundation
import WeatherEngine
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGTERM and SIGINT, turned into a call (on a dispatch queue, never in a signal handler).
package final class TerminationSignals {
    private let sources: [any DispatchSourceSignal]

    /// Ignores SIGTERM and SIGINT's default action and calls `handler` for each one received.
    package init(_ handler: @escaping @Sendable () -> Void) {
        sources = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    /// Stops listening.
    package func cancel() { sources.forEach { $0.cancel() } }
}

extension ServiceGroup {
    /// Runs the engine's log, `front`, `others` (the metrics endpoint) and the engine's workers as one group
    /// until it shuts down: when the front returns, or at SIGTERM/SIGINT (recorded as `signal`).
    static func serve(_ engine: Engine, front: any Service, also others: [any Service] = []) async {
        let group = ServiceGroup(services: [engine.logService, front] + others + engine.workerServices()) { error in
            engine.logger.error("a service stopped: \(error)")
        }
        let signals = TerminationSignals {
            engine.setStopReason("signal")
            group.triggerGracefulShutdown()
        }
        await group.run()
        signals.cancel()
    }
}
