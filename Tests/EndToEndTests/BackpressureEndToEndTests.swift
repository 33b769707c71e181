import Foundation
import Synchronization
import Testing
import WeatherDomain
import WeatherTesting

/// Writes lines to a child's stdin on a thread of its own (the write blocks while the child does not read).
private final class BlockingWriter: Sendable {
    private let finished = Mutex(false)
    private let written = Atomic(0)

    init(_ weatherd: RunningWeatherd, lines: [String]) {
        let thread = Thread { [self] in
            for line in lines {
                do { try weatherd.send(line: line) } catch { break }
                self.written.add(1, ordering: .relaxed)
            }
            self.finished.withLock { $0 = true }
        }
        thread.start()
    }

    var isFinished: Bool { finished.withLock { $0 } }

    /// How many lines were written whole so far.
    var linesWritten: Int { written.load(ordering: .relaxed) }

    /// Waits until every line is written; false when `timeout` passes first.
    func wait(timeout: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while !isFinished {
            if ContinuousClock.now >= deadline { return false }
            try await Task.sleep(for: .milliseconds(20))
        }
        return true
    }
}

/// The child's peak resident memory once it has settled: its resident size polled until it moved less than 1 MiB
/// in 2 s, or `limit` has passed.
private func settledPeak(_ weatherd: RunningWeatherd, limit: Duration) async throws -> Int64 {
    let deadline = ContinuousClock.now.advanced(by: limit)
    var last = try weatherd.residentBytes()
    while ContinuousClock.now < deadline {
        try await Task.sleep(for: .seconds(2))
        let now = try weatherd.residentBytes()
        if abs(now - last) < 1 << 20 { break }
        last = now
    }
    return try weatherd.peakResidentBytes()
}

@Suite("weatherd end to end: bounded memory under a slow reader and large requests")
struct BackpressureEndToEndTests {
    /// The peak resident memory allowed in both floods: the output bound (16 MiB) plus the answers of the requests
    /// already read when it was reached (at most 1,024, each at most a 64 KiB page), the input budget (16 MiB of
    /// lines held), and an idle weatherd (about 15 MB), with room to spare; each flood is over 150 MB.
    static let peakMemoryBound: Int64 = 160 << 20

    @Test("a client that never reads its answers is no longer read; memory stays bounded; it gets every answer later")
    func slowReader() async throws {
        let directory = TemporaryDataDirectory()
        let weatherd = try RunningWeatherd(
            arguments: ["--standalone", "--data-dir", directory.path, "--log-level", "warning"] + quietTimers,
            readOutput: false)
        let name = String(repeating: "n", count: 200)
        let adds = (0..<300).map { index in
            #"{"jsonrpc":"2.0","id":"add-\#(index)","method":"favorites/add","params":{"name":"\#(name)","lat":\#(Double(index) / 10),"lon":1}}"#
        }
        // Each answer is a page of about 64 KB: 4,000 of them are about 250 MB if queued without bound.
        let queries = (0..<4000).map { index in
            #"{"jsonrpc":"2.0","id":"q-\#(index)","method":"favorites/list","params":{"limit":1000}}"#
        }
        let writer = BlockingWriter(weatherd, lines: adds + queries)
        let peak = try await settledPeak(weatherd, limit: .seconds(60))
        #expect(!writer.isFinished, "weatherd stopped reading the flood")
        #expect(peak < Self.peakMemoryBound, "peak RSS \(peak >> 20) MiB while the client did not read")

        weatherd.readOutput()
        // Bounds that only catch a hang: on one core shared with a busy loop and the whole suite, 250 MiB through
        // a pipe took more than 400 s.
        #expect(try await writer.wait(timeout: .seconds(1800)))
        #expect(await weatherd.output.wait(for: adds.count + queries.count, timeout: .seconds(1800)))
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)
        let messages = try weatherd.output.messages()
        let answered = Set(messages.compactMap { $0["id"]?.stringValue })
        #expect(answered.count == adds.count + queries.count, "each request answered once")
        let pages = messages.filter { $0["id"]?.stringValue?.hasPrefix("q-") == true }
        #expect(pages.allSatisfy { $0["result"]?["favorites"]?.arrayValue?.isEmpty == false })
        try Repository.checkLog(directory.path)
    }

    @Test("250 requests of 1 MiB waiting on a slow upstream: memory stays bounded, all answered from one call")
    func largeRequests() async throws {
        let server = try LocalHTTPServer()
        server.route(
            "/v1/forecast", query: "current=",
            .init(body: OpenMeteoBodies.current(temperature: 4), held: true)
        )
        let directory = TemporaryDataDirectory()
        // The upstream holds its answer until the test has counted the lines read (within a 600 s deadline), so
        // no pause of a test process loaded by the whole suite lets the answers free the budget before that; the
        // answer is cached for a day, so however long the 250 MiB take to go through, one call serves them all.
        let weatherd = try startWeatherd(
            directory,
            ["--open-meteo-base-url", server.baseURL, "--upstream-timeout", "600", "--cache-ttl", "86400"])
        let pad = String(repeating: "p", count: 1_000_000)
        let lines = (0..<250).map { index in
            #"{"jsonrpc":"2.0","id":\#(index),"method":"weather/current","params":{"lat":1,"lon":1,"_meta":{"pad":"\#(pad)"}}}"#
        }
        let writer = BlockingWriter(weatherd, lines: lines)
        // While the upstream holds its answer every request read is held; only the budget limits how many are read.
        let peak = try await settledPeak(weatherd, limit: .seconds(18))
        // The input budget holds 16 MiB of lines: 16 of these. One more is read whole and waits for its share;
        // the pipe and the reader's 64 KiB buffer hold less than another. A reader bounded by line count only
        // (1,024) takes in as many as it can parse in these seconds.
        let heldAtMost = (16 << 20) / (lines[0].utf8.count + 1)
        #expect(writer.linesWritten <= heldAtMost + 1, "\(writer.linesWritten) lines of 1 MiB taken in")
        #expect(peak < Self.peakMemoryBound, "peak RSS \(peak >> 20) MiB while 1 MiB requests waited")
        server.release()

        // 250 MiB still go through the pipe: on a 2-core machine running the whole suite that takes minutes, so
        // these bounds only catch a hang.
        #expect(try await writer.wait(timeout: .seconds(1800)))
        #expect(await weatherd.output.wait(for: lines.count, timeout: .seconds(1800)))
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)
        let messages = try weatherd.output.messages()
        #expect(messages.count == lines.count)
        #expect(messages.allSatisfy { $0["result"]?["conditions"] != nil || $0["result"]?["current"] != nil })
        #expect(server.requests.count == 1, "one upstream call, shared, then the cache")
    }
}
