import Foundation
import Testing
import WeatherDomain
import WeatherRuntime
import WeatherService
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many threads a process has (`/proc/PID/task`).
private func threads(of pid: Int32) throws -> Int {
    try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count
}

/// A process's threads: those weatherd starts (the loop, the pool, the log writer, the snapshotter, main), and
/// libdispatch's workers under Swift's cooperative pool (`…default-qos`, `…qos.overcommit`), which it starts
/// as work comes, up to a bound set by the number of cores, never by the number of connections.
private func threadNames(of pid: Int32) throws -> (own: [String], dispatch: Int) {
    let names = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").map { task in
        try String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
    let dispatch = names.filter { $0.hasSuffix("-qos") || $0.hasSuffix("qos.overcommit") }
    return (names.filter { !dispatch.contains($0) }.sorted(), dispatch.count)
}

/// One connection to the daemon's socket that asks a request and reads its one answer line.
private final class AskingClient: Sendable {
    let fd: Int32

    init(path: String) throws { fd = try DaemonLauncher.connect(path: path) }

    deinit { close(fd) }

    /// Sends `settings/get` with `id` and reads lines until the one that answers it.
    func ask(id: Int) -> Bool { ask(ids: id..<(id + 1)) }

    /// Sends `settings/get` with each of `ids` at once (pipelined) and reads lines until all are answered.
    func ask(ids: Range<Int>) -> Bool {
        let lines = ids.map { #"{"jsonrpc":"2.0","id":\#($0),"method":"settings/get"}"# + "\n" }
        let request = Array(lines.joined().utf8)
        guard request.withUnsafeBytes({ Descriptor.writeAll(fd, $0, socket: true) }) == nil else { return false }
        var unanswered = Set(ids.map { JSONValue.int(Int64($0)) })
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = Array(pending[..<newline])
                pending.removeFirst(newline + 1)
                if let id = (try? JSONValue.parse(line))?["id"] { unanswered.remove(id) }
                if unanswered.isEmpty { return true }
                continue
            }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            guard count > 0 else { return false }
            pending += buffer[..<count]
        }
    }
}

@Suite("weatherd end to end: a connection costs no thread")
struct ThreadsEndToEndTests {
    @Test("the daemon's thread count is the same with 64 connected clients as with one")
    func daemonThreads() async throws {
        #if os(Linux)
            let shared = try SharedDataDir()
            let client = try shared.client(["--max-connections", "80"])
            _ = try await client.call("service/status")
            let pid = try #require(try shared.daemonPID())
            let path = try shared.socketPath
            // The clients block in `read`: on a thread of their own, never on the tests' shared threads.
            let first = try AskingClient(path: path)
            #expect(try await onThread { first.ask(ids: 0..<200) })
            let withOne = try threadNames(of: pid)
            // 63 more, each connected and served, all open at once.
            let others = try await onThread {
                try (0..<63).map { index in
                    let other = try AskingClient(path: path)
                    #expect(other.ask(id: index))
                    return other
                }
            }
            #expect(try await shared.connections(become: 65, asking: client), "every connection is open at once")
            #expect(try await onThread { first.ask(ids: 200..<400) })
            let withMany = try threadNames(of: pid)
            #expect(
                withMany.own == withOne.own,
                "weatherd's own threads: \(withOne.own) with one client, \(withMany.own) with 64")
            // libdispatch's workers grow as work comes, whoever sends it: bounded by the cores, one connection or 64.
            let cores = ProcessInfo.processInfo.activeProcessorCount
            #expect(withMany.dispatch <= cores + 2, "\(withMany.dispatch) dispatch workers on \(cores) cores")
            withExtendedLifetime(others) {}
            try client.closeInput()
            #expect(await client.waitForExit() == 0)
            try await shared.stopDaemon()
        #endif
    }

    @Test("a relay has at most 3 threads, and its daemon's answers pass through it")
    func relayThreads() async throws {
        #if os(Linux)
            let shared = try SharedDataDir()
            let client = try shared.client()
            #expect(try await client.call("settings/get")["result"] != nil)
            let relayThreads = try threads(of: client.pid)
            #expect(relayThreads <= 3, "the relay runs \(relayThreads) threads")
            #expect(try await client.call("service/status")["result"] != nil)
            try client.closeInput()
            #expect(await client.waitForExit() == 0)
            try await shared.stopDaemon()
        #endif
    }
}
