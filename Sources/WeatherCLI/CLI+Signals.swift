import Synchronization
import WeatherEngine
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension CLI {
    /// Runs a command so that SIGTERM or SIGINT end it cleanly: the command's task is cancelled (a bar, a
    /// notifier or a nowcast watch stop; hooks get SIGTERM, then SIGKILL after their grace), and the exit status
    /// is 0: being told to stop is how a bar, a notifier or a watch is meant to end.
    static func interruptible(on runtime: Runtime, _ body: @escaping @Sendable () async -> Int32) async -> Int32 {
        let signalled = Promise<Int32>()
        let watch: SignalWatch?
        do {
            watch = try SignalWatch(on: runtime.loop) { signalled.fulfill($0) }
        } catch {
            Logger.standardError("weatherd: signals cannot be watched (\(error)); SIGTERM and SIGINT are ignored")
            watch = nil
        }
        defer { watch?.cancel() }
        let status = await withTaskGroup(of: Int32?.self) { group in
            group.addTask { await body() }
            group.addTask {
                _ = await signalled.waitUnlessCancelled()
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            // After a signal, the command's own end (its children stopped) is waited for.
            let rest = await group.next() ?? nil
            return first ?? rest ?? Exit.failed
        }
        return signalled.current == nil ? status : Exit.ok
    }
}
