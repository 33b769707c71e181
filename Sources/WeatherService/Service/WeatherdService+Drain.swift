extension WeatherdService {
    /// Lets in-flight requests, background refreshes and upstream calls finish for up to `grace`,
    /// then cancels what is left (requests are answered `-32800`, cut upstream calls are audited as
    /// timeouts) and waits for it, so the process exits well within the 2 s hosts allow after
    /// end of input.
    func finishInFlight(_ server: RPCServer, grace: Duration) async {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: grace)
        while clock.now < deadline {
            let idle = await context.fetcher.isIdle
            if server.isIdle, context.background.isIdle, idle { break }
            do {
                try await Task.sleep(for: .milliseconds(10))
            } catch {
                break
            }
        }
        server.cancelAll()
        context.background.cancelAll()
        await context.fetcher.abandonAll()
        await server.drain()
        await context.background.drain()
        await context.fetcher.drain()
    }
}
