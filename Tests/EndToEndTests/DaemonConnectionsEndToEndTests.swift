import Foundation
import Testing
import WeatherDomain
import WeatherService
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A raw client of the daemon's socket, for what the relay never does (stop reading, overstay).
private final class RawSocketClient: Sendable {
    let fd: Int32

    init(path: String) throws { fd = try DaemonLauncher.connect(path: path) }

    deinit { close(fd) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if written <= 0 { return }
                offset += written
            }
        }
    }

    /// Everything the daemon sends until it closes the connection (or `timeout` passes).
    func readToEnd(timeout: Duration = .seconds(20)) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let end = ContinuousClock.now.advanced(by: timeout)
        while ContinuousClock.now < end {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) >= 0 else { break }
            guard entry.revents != 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if count <= 0 { break }
            received += buffer[..<count]
        }
        return received
    }
}

@Suite("weatherd end to end: the daemon's connections")
struct DaemonConnectionsEndToEndTests {
    @Test("a connection that never reads is cut once its output passes the bound; another is served throughout")
    func slowReaderCut() async throws {
        let shared = try SharedDataDir()
        // A bound of 1 MiB: the cut comes after about 20 answers, so the daemon encodes little on a busy machine.
        let client = try shared.client(["--max-unread-output-bytes", "1048576"])
        for index in 0..<600 {
            try client.send(
                line:
                    #"{"jsonrpc":"2.0","id":"f\#(index)","method":"favorites/add","params":{"name":"A place with a long name \#(index)","lat":\#(Double(index) / 10),"lon":1}}"#
            )
        }
        #expect(await client.output.wait(for: 600))
        let stalled = try RawSocketClient(path: try shared.socketPath)
        let page = #"{"jsonrpc":"2.0","id":1,"method":"favorites/list","params":{"limit":1000}}"# + "\n"
        stalled.send(String(repeating: page, count: 400))
        // About 60 KB per answer: 400 of them pass the 1 MiB bound many times over, and the daemon cuts the
        // connection once about 20 wait unread (the kernel's socket buffers hold some more). The wait is a hang
        // guard, not a speed claim.
        #expect(
            await eventually { shared.logMentions("cut: its peer stopped reading") },
            "the daemon cut the connection that did not read")
        #expect(try await shared.connections(become: 1, asking: client), "only the reading client is left")
        let received = stalled.readToEnd()
        let answers = received.split(separator: UInt8(ascii: "\n")).count
        #expect(answers < 400, "the cut connection got \(answers) of its 400 answers, then end of file")
        try client.closeInput()
        #expect(await client.waitForExit() == 0)
        try await shared.stopDaemon()
        try Repository.checkLog(shared.directory.path)
    }

    @Test("a data dir held by weatherd --standalone: a client gets daemon_unavailable naming it, and exits 1")
    func heldByStandalone() async throws {
        let shared = try SharedDataDir()
        let standalone = try RunningWeatherd(
            arguments: ["--standalone", "--data-dir", shared.directory.path, "--log-level", "warning"] + quietTimers)
        _ = try await standalone.call("service/status")
        let client = try shared.client()
        #expect(await client.waitForExit() == 1)
        let answer = try #require(try client.output.messages().first)
        #expect(answer["error"]?["code"] == 1016)
        let message = answer["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains("in use by weatherd (pid \(standalone.pid)), which serves no socket"), "\(message)")
        try standalone.closeInput()
        #expect(await standalone.waitForExit() == 0)
    }

    @Test("past --max-connections a new connection gets too_many_connections and is closed")
    func maxConnections() async throws {
        let shared = try SharedDataDir()
        let client = try shared.client(["--max-connections", "2"])
        _ = try await client.call("service/status")
        let second = try RawSocketClient(path: try shared.socketPath)
        second.send(#"{"jsonrpc":"2.0","id":1,"method":"settings/get"}"# + "\n")
        let third = try RawSocketClient(path: try shared.socketPath)
        let refusal = try JSONValue.parse(third.readToEnd().split(separator: UInt8(ascii: "\n")).first ?? [])
        #expect(refusal["error"]?["code"] == 1014)
        #expect(refusal["error"]?["data"]?["kind"] == "too_many_connections")
        #expect(refusal["error"]?["message"]?.stringValue?.contains("--max-connections") == true)
        #expect(try await client.call("settings/get")["result"] != nil, "the others are still served")
        try client.closeInput()
        #expect(await client.waitForExit() == 0)
        try await shared.stopDaemon()
    }

    @Test(
        "a peer of another user is refused with peer_refused (run as uid 65534 through setpriv)",
        .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func otherUserRefused() async throws {
        let shared = try SharedDataDir()
        let client = try shared.client()
        _ = try await client.call("service/status")
        let socket = try shared.socketPath
        // Only a loosened mode lets another user reach the socket at all; the credential check still refuses.
        chmod(shared.runtime, 0o755)
        chmod((socket as NSString).deletingLastPathComponent, 0o755)
        chmod(socket, 0o666)
        let process = try TestProcess(
            "/usr/bin/setpriv",
            arguments: [
                "--reuid=65534", "--regid=65534", "--clear-groups", RunningWeatherd.binaryPath, "--data-dir",
                shared.directory.path, "--socket", socket,
            ], environment: RunningWeatherd.environment([:]), standardInput: .pipe, standardOutput: .pipe)
        try process.input!.write(
            contentsOf: Data(#"{"jsonrpc":"2.0","id":1,"method":"favorites/list"}"#.utf8 + [10]))
        try process.input!.close()
        // Read on a thread of its own, never on the tests' shared threads.
        let lines = await withCheckedContinuation { continuation in
            Thread { [output = process.output!] in continuation.resume(returning: output.readDataToEndOfFile()) }
                .start()
        }
        #expect(await process.exit() == 1)
        let refusal = try JSONValue.parse(Array(lines.split(separator: 10).first ?? Data()))
        #expect(refusal["error"]?["data"]?["kind"] == "peer_refused")
        #expect(refusal["error"]?["message"]?.stringValue?.contains("65534") == true, "\(refusal.jsonString)")
        try client.closeInput()
        #expect(await client.waitForExit() == 0)
        try await shared.stopDaemon()
    }

    @Test("a socket passed systemd-style (LISTEN_PID, LISTEN_FDS, fd 3) is served and left in place at exit")
    func systemdSocket() async throws {
        let shared = try SharedDataDir()
        let path = shared.runtime + "/passed.sock"
        let listener = try UnixListener(path: path)
        let daemon = try TestProcess(
            "/bin/sh",
            arguments: [
                "-c",
                #"exec 3<&0 0</dev/null; LISTEN_PID=$$ LISTEN_FDS=1 exec "$0" serve --data-dir "$1" --log-level error"#,
                RunningWeatherd.binaryPath, shared.directory.path,
            ], environment: RunningWeatherd.environment([:]), standardInput: .descriptor(listener.fd))
        let client = try shared.client(["--socket", path])
        let status = try await client.call("service/status")
        #expect(
            status["result"]?["pid"] == .int(Int64(daemon.pid)), "served by the passed socket's daemon")
        #expect(status["result"]?["socket"] == .string(path))
        try client.closeInput()
        #expect(await client.waitForExit() == 0)
        daemon.send(SIGTERM)
        #expect(await daemon.exit() == 0)
        #expect(FileManager.default.fileExists(atPath: path), "systemd's socket is systemd's to remove")
        #expect(try logEvents(shared.directory).last?["type"] == "service.stopped")
        listener.close()
        try Repository.checkLog(shared.directory.path)
    }
}
