import EventLog
import Foundation
import Testing
import WeatherDomain
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `weatherd serve --nats URL` on a shared data dir, and a client talking to it through the relay.
struct ShippingDaemon {
    let daemon: RunningWeatherd
    let client: RunningWeatherd
    private let shared: SharedDataDir

    /// Starts the daemon shipping to `url`, and, once it listens, a client (given `--nats` too, so a daemon it
    /// might start would ship as well), returning once the client is known to talk to this daemon: a client that
    /// is still connecting when the daemon dies starts a daemon of its own.
    init(_ shared: SharedDataDir, nats url: String) async throws {
        self.shared = shared
        let daemon = try RunningWeatherd(
            arguments: [
                "serve", "--data-dir", shared.directory.path, "--socket", try shared.socketPath, "--log-level", "info",
                "--idle-exit", "3600", "--nats", url,
            ] + quietTimers, environment: shared.environment)
        let listening = await eventually { daemon.standardError.contains("info: listening on") }
        guard listening else {
            daemon.signal(SIGKILL)
            throw RunningWeatherdError("weatherd serve did not start listening: \(daemon.standardError)")
        }
        self.daemon = daemon
        client = try shared.client(["--nats", url])
        let pid = try await client.call("service/status")["result"]?["pid"]?.intValue
        guard pid == Int64(daemon.pid) else {
            throw RunningWeatherdError("the client talks to pid \(pid ?? 0), not to weatherd serve (\(daemon.pid))")
        }
    }

    /// Sends every change at once, one request a line, without waiting for the answers.
    func send(_ changes: [(method: String, params: JSONValue)]) throws {
        guard !changes.isEmpty else { return }
        let batch = UUID().uuidString.prefix(8)
        let lines = changes.enumerated().map { index, change in
            JSONValue.object([
                "jsonrpc": "2.0", "id": .string("change-\(batch)-\(index)"), "method": .string(change.method),
                "params": change.params,
            ]).jsonString
        }
        try client.send(line: lines.joined(separator: "\n"))
    }

    /// Waits until `count` of the changes sent have been answered; false only when the hang guard fires.
    func answered(_ count: Int) async throws -> Bool {
        try await eventually {
            try client.output.messages().count { $0["id"]?.stringValue?.hasPrefix("change-") == true } >= count
        }
    }

    /// The daemon's shipping facts (`service/status` → `shipping`) and its log's last seq.
    func shipping() async throws -> (facts: JSONValue, lastSeq: Int64) {
        let status = try await client.call("service/status")["result"]
        return (status?["shipping"] ?? .null, status?["lastSeq"]?.intValue ?? -1)
    }

    /// Waits until the stream has acknowledged every committed event, and returns the log's last seq then.
    ///
    /// - Throws: when the hang guard fires first.
    func caughtUp() async throws -> Int64 {
        var last: (facts: JSONValue, lastSeq: Int64) = (.null, -1)
        let done = try await eventually(asking: {
            last = try await shipping()
            return last.facts["connected"] == true && last.facts["lagEvents"] == .int(0)
        })
        guard done else { throw RunningWeatherdError("shipping did not catch up: \(last.facts)") }
        return last.lastSeq
    }

    /// SIGKILLs the daemon, only while it is the one holding the data dir's lock (pids are reused), then its
    /// client.
    func kill() async {
        #expect(
            lockHolderPID(dataDirectory: shared.directory.path) == daemon.pid,
            "the daemon holds its lock; its stderr: \(daemon.standardError); the client's: \(client.standardError)")
        if lockHolderPID(dataDirectory: shared.directory.path) == daemon.pid { daemon.signal(SIGKILL) }
        _ = await daemon.waitForExit()
        client.signal(SIGKILL)
        _ = await client.waitForExit()
    }
}

/// Checks that `server`'s stream holds the data dir's log exactly: each line once, in seq order, as the log holds
/// it (checksum and all), with its `Nats-Msg-Id`, and nothing past `lastSeq`, the last committed seq.
func expectStream(of server: NATSServerProcess, holdsLogOf directory: TemporaryDataDirectory, through lastSeq: Int64)
    async throws
{
    let logID = try #require(try LogIdentity.read(directory: directory.path))
    let messages = try await server.messages(subject: "weatherd.\(logID)")
    let lines = directory.logBytes().split(separator: UInt8(ascii: "\n")).map(Array.init)
    let seqs = try lines.map { try JSONValue.parse($0)["seq"]?.intValue ?? 0 }
    #expect(seqs == Array(1...lastSeq), "the log's lines are seq 1 to \(lastSeq), nothing after")
    #expect(messages.count == lines.count)
    #expect(messages.map(\.data) == lines, "the stream holds each line once, in order, as the log does")
    #expect(messages.map { $0.headers?["Nats-Msg-Id"] } == seqs.map { "\(logID)-\($0)" })
    #expect(zip(messages, messages.dropFirst()).allSatisfy { $0.streamSeq < $1.streamSeq })
}
