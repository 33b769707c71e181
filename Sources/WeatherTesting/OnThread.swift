import EventLog
import WeatherRuntime

/// Runs blocking, CPU-heavy test work (writing and replaying whole logs) on a thread of its own, so it does
/// not occupy the cooperative pool that the other tests' tasks (and their timeouts) run on.
package func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await onOwnThread(named: "weatherd-test") { Result { try body() } }.get()
}
