import Synchronization
import WeatherDomain
import WeatherEngine
import WeatherService

/// A line sink that keeps every line: the RPC front's output in process, a child's stdout end to end.
package final class CollectingSink: LineSink {
    private let state = Mutex<[[UInt8]]>([])

    package init() {}

    package func send(_ line: [UInt8]) { state.withLock { $0.append(line) } }

    /// The raw lines so far.
    package var lines: [[UInt8]] { state.withLock { $0 } }

    /// The lines so far, decoded.
    package func messages() throws -> [JSONValue] { try lines.map { try JSONValue.parse($0) } }

    /// How long a test waits for output before calling it lost. Only a hang guard: the whole suite runs its
    /// end-to-end processes beside the in-process services on 2 cores, where an answer can wait a minute for a
    /// thread (all pass alone in a second or two).
    package static let patience: Duration = .seconds(240)

    /// Waits until at least `count` lines have arrived; false when `timeout` passes first.
    @discardableResult
    package func wait(for count: Int, timeout: Duration = patience) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while state.withLock({ $0.count }) < count {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return true
    }

    /// Waits for the response with `id`; nil when `timeout` passes first.
    package func response(id: JSONValue, timeout: Duration = patience) async throws -> JSONValue? {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            for message in try messages() where message["id"] == id && message["method"] == nil {
                return message
            }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(2))
        }
    }
}
