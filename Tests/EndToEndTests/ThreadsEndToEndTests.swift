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

/// One connection to the daemon's socket that asks a request and reads its one answer line.
private final class AskingClient: Sendable {
    let fd: Int32

    init(path: String) throws { fd = try DaemonLauncher.connect(path: path) }

    deinit { close(fd) }

    /// Sends `settings/get` with `id` and reads lines until the one that answers it.
    func ask(id: Int) -> Bool {
        let request = Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"settings/get"}"#.utf8) + [0x0A]
        guard request.withUnsafeBytes({ Descriptor.writeAll(fd, $0, socket: true) }) == nil else { return false }
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = Array(pending[..<newline])
                pending.removeFirst(newline + 1)
                if (try? JSONValue.parse(line))?["id"] == .int(Int64(id)) { return true }
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
            // One client, busy: its requests in flight use whatever threads the daemon will ever start for them.
            let first = try AskingClient(path: path)
            for id in 0..<200 { #expect(first.ask(id: id)) }
            let withOne = try threads(of: pid)
            // 63 more, each connected and served, all open at once.
            var others: [AskingClient] = []
            for index in 0..<63 {
                let other = try AskingClient(path: path)
                #expect(other.ask(id: index))
                others.append(other)
            }
            #expect(try await shared.connections(become: 65, asking: client), "every connection is open at once")
            for id in 200..<400 { #expect(first.ask(id: id)) }
            let withMany = try threads(of: pid)
            #expect(withMany == withOne, "\(withOne) threads with one client, \(withMany) with 64")
            others.removeAll()
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
