import Synchronization
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherService

/// A line sink that keeps every line: the RPC front's output in process, a child's stdout end to end.
///
/// Waiting for lines is told of each arrival (no polling); real time bounds a wait only as a hang guard.
package final class CollectingSink: LineSink {
    private let state = Mutex<[[UInt8]]>([])
    private let arrivals = WaitQueue<Void>()

    package init() {}

    package func send(_ line: [UInt8]) {
        state.withLock { $0.append(line) }
        arrivals.resumeAll(())
    }

    /// The raw lines so far.
    package var lines: [[UInt8]] { state.withLock { $0 } }

    /// The lines so far, decoded.
    package func messages() throws -> [JSONValue] { try lines.map { try JSONValue.parse($0) } }

    /// How long a test waits for output before calling it lost: a hang guard, never a verdict.
    package static let patience: Duration = hangGuardLimit

    /// Waits until at least `count` lines have arrived; false when the hang guard fires first.
    @discardableResult
    package func wait(for count: Int, timeout: Duration = patience) async -> Bool {
        await first(timeout: timeout) { lines in lines.count >= count ? true : nil } ?? false
    }

    /// Waits for the response with `id`; nil when the hang guard fires first.
    package func response(id: JSONValue, timeout: Duration = patience) async throws -> JSONValue? {
        // Each line is decoded once, however many arrive while it waits.
        let scanned = Cursor()
        return await first(timeout: timeout) { lines in
            let start = scanned.advance(to: lines.count)
            return lines[start...].lazy.compactMap { try? JSONValue.parse($0) }.first {
                $0["id"] == id && $0["method"] == nil
            }
        }
    }

    /// The first non-nil answer of `found` over the lines so far, asked again at each arrival.
    private func first<T: Sendable>(
        timeout: Duration, _ found: @escaping @Sendable ([[UInt8]]) -> T?
    ) async -> T? {
        await withHangGuard(timeout) { [self] in
            while true {
                let seen = lines
                if let value = found(seen) { return value }
                let arrived: Void? = await arrivals.wait { self.lines.count > seen.count ? () : nil }
                guard arrived != nil else { return nil }
            }
        }
    }
}

/// How far a wait has looked through the lines.
private final class Cursor: Sendable {
    private let position = Mutex(0)

    /// Moves to `end` and returns where it was.
    func advance(to end: Int) -> Int {
        position.withLock { position in
            defer { position = end }
            return min(position, end)
        }
    }
}
