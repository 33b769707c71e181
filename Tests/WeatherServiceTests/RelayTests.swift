import Foundation
import Synchronization
import Testing
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherService
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A relay wired to pipes for its input and output and a socket pair whose other end plays the daemon.
///
/// The relay serves copies of its pipes' ends, opened anew (and closed) by its channels; the test's own ends of
/// the pipes stay open until the process ends.
final class RelayRig: Sendable {
    let relay: Relay
    /// The daemon's end of the connection.
    let daemon: Int32
    /// The test's end of the relay's input.
    let input: Int32
    /// The test's end of the relay's output (non-blocking).
    let output: Int32
    private let log = LogLines()

    /// The relay's clock: its deadline after the end of input is a timer on it.
    let clock: ManualClock

    init(maxLineBytes: Int = 1 << 20, deadline: Duration = .seconds(5), clock: ManualClock = ManualClock()) throws {
        self.clock = clock
        let (relaySide, daemonSide) = SocketTestSupport.pair()
        var inputPipe: [Int32] = [-1, -1]
        var outputPipe: [Int32] = [-1, -1]
        precondition(pipe(&inputPipe) == 0 && pipe(&outputPipe) == 0, "pipe failed")
        let log = log
        relay = try Relay(
            socket: relaySide, input: inputPipe[0], output: outputPipe[1], maxLineBytes: maxLineBytes,
            deadline: deadline, logger: Logger(level: .debug) { line in log.lines.withLock { $0.append(line) } },
            clock: clock, loop: Runtime.testing().loop)
        daemon = daemonSide
        input = inputPipe[1]
        output = outputPipe[0]
        _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
    }

    /// What the relay logged.
    var logged: [String] { log.lines.withLock { $0 } }

    /// Sends `text` as the client's input.
    func type(_ text: String) { SocketTestSupport.write(input, text) }

    /// Ends the client's input.
    func endInput() { closeDescriptor(input) }

    /// The lines the relay has written so far.
    func outputLines() -> [String] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress!, $0.count) }
            guard got > 0 else { break }
            bytes.append(contentsOf: buffer[..<got])
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Plays the daemon on a thread of its own.
    func daemon(_ script: @escaping @Sendable (DaemonEnd) -> Void) {
        let end = DaemonEnd(fd: daemon)
        Thread { script(end) }.start()
    }

    func close() { closeDescriptor(output) }
}

/// Lines a logger wrote.
final class LogLines: Sendable {
    let lines = Mutex<[String]>([])
}

/// The fake daemon's side of the connection: reads lines, writes lines.
final class DaemonEnd: @unchecked Sendable {
    // Used by one thread only (the script's).
    let fd: Int32
    private var pending: [UInt8] = []

    init(fd: Int32) { self.fd = fd }

    /// The next line, or nil at end of file.
    func readLine() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeFirst(newline + 1)
                return line
            }
            let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            guard got > 0 else { return nil }
            pending.append(contentsOf: buffer[..<got])
        }
    }

    /// Reads lines until end of file.
    func readAll() -> [String] {
        var lines: [String] = []
        while let line = readLine() { lines.append(line) }
        return lines
    }

    func send(_ line: String) { SocketTestSupport.write(fd, line + "\n") }

    func close() { closeDescriptor(fd) }
}

/// `close`, out of reach of the rig's own `close`.
private func closeDescriptor(_ fd: Int32) { _ = close(fd) }

/// The error object of an output line.
private func errorOf(_ line: String) -> (id: JSONValue?, code: Int64?, kind: String?) {
    let value = try? JSONValue.parse(line)
    return (value?["id"], value?["error"]?["code"]?.intValue, value?["error"]?["data"]?["kind"]?.stringValue)
}

@Suite("Relay lines")
struct RelayLinesTests {
    @Test("a client line expects exactly the answers the daemon gives")
    func expected() {
        func ids(_ line: String) -> [JSONValue] { RelayLines.judge(Array(line.utf8)).expected.map(\.id) }
        #expect(ids(#"{"jsonrpc":"2.0","id":1,"method":"a"}"#) == [1])
        #expect(ids(#"{"jsonrpc":"2.0","id":"x","method":"a","params":{}}"#) == ["x"])
        #expect(ids(#"{"jsonrpc":"2.0","method":"note"}"#) == [])
        #expect(ids("   ") == [])
        #expect(ids("not json") == [nil])
        #expect(ids("[]") == [nil])
        #expect(ids(#"{"jsonrpc":"1.0","id":5,"method":"a"}"#) == [5])
        #expect(ids(#"{"jsonrpc":"2.0","id":[5],"method":"a"}"#) == [nil])
        #expect(ids(#"{"jsonrpc":"1.0","method":"a"}"#) == [nil])
        let batch =
            #"[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"n"},7,"#
            + #"{"jsonrpc":"2.0","id":"b","method":"b"}]"#
        #expect(ids(batch) == [1, nil, "b"])
        let written = RelayLines.judge(Array(#"{"jsonrpc":"2.0","id":1.50,"method":"a"}"#.utf8)).expected
        #expect(written == [RelayLines.Expected(id: 1.5, idText: Array("1.50".utf8))])
    }

    @Test("a daemon line answers the ids of its answers, not of notifications")
    func answered() {
        func ids(_ line: String) -> [JSONValue] {
            Array(line.utf8).withUnsafeBytes { RelayLines.answeredIDs($0) }
        }
        #expect(ids(#"{"jsonrpc":"2.0","id":3,"result":{"big":[1,2,3]}}"#) == [3])
        #expect(ids(#"{"jsonrpc":"2.0","id":"s","error":{"code":1,"message":"m"}}"#) == ["s"])
        #expect(ids(#"{"jsonrpc":"2.0","method":"weather.changed","params":{"id":4}}"#) == [])
        #expect(ids(#"[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":null,"error":{}}]"#) == [1, nil])
        #expect(ids(#"{"jsonrpc":"2.0","id":1.50,"result":0}"#) == [1.5])
    }
}

@Suite("Relay")
struct RelayTests {
    @Test("lines go both ways; at end of input the socket is half-closed and the pending answer awaited; exit 0")
    func bothWays() async throws {
        let rig = try RelayRig()
        defer { rig.close() }
        // The fake daemon answers only after end of file: without the half-close the relay would never finish.
        let seen = Mutex<[String]>([])
        rig.daemon { end in
            let lines = end.readAll()
            seen.withLock { $0 = lines }
            Thread.sleep(forTimeInterval: 0.1)
            end.send(#"{"jsonrpc":"2.0","method":"weather.changed","params":{}}"#)
            end.send(#"{"jsonrpc":"2.0","id":1,"result":"pong"}"#)
            end.close()
        }
        rig.type(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"# + "\n")
        rig.type(#"{"jsonrpc":"2.0","method":"note"}"# + "\n")
        rig.endInput()
        let code = await rig.relay.run()
        #expect(code == 0)
        #expect(
            seen.withLock { $0 } == [
                #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, #"{"jsonrpc":"2.0","method":"note"}"#,
            ])
        #expect(
            rig.outputLines() == [
                #"{"jsonrpc":"2.0","method":"weather.changed","params":{}}"#,
                #"{"jsonrpc":"2.0","id":1,"result":"pong"}"#,
            ])
        #expect(rig.logged.isEmpty)
    }

    @Test("a daemon that closes with requests pending: one daemon_gone error (1013) per pending id; exit 1")
    func daemonGone() async throws {
        let rig = try RelayRig()
        defer { rig.close() }
        rig.daemon { end in
            for _ in 0..<3 { _ = end.readLine() }
            end.send(#"{"jsonrpc":"2.0","id":"abc","result":true}"#)
            end.close()
        }
        rig.type(#"{"jsonrpc":"2.0","id":7,"method":"slow"}"# + "\n")
        rig.type(#"{"jsonrpc":"2.0","id":"abc","method":"fast"}"# + "\n")
        rig.type(#"{"jsonrpc":"2.0","id":1.50,"method":"slow"}"# + "\n")
        let code = await rig.relay.run()
        #expect(code == 1)
        let lines = rig.outputLines()
        #expect(lines.count == 3)
        #expect(lines.first == #"{"jsonrpc":"2.0","id":"abc","result":true}"#)
        let errors = lines.dropFirst().map(errorOf)
        #expect(errors.map(\.id) == [7, 1.5])
        #expect(errors.allSatisfy { $0.code == 1013 && $0.kind == "daemon_gone" })
        #expect(lines.last?.contains(#""id":1.50,"#) == true)
        #expect(lines.last?.contains("may or may not have been carried out") == true)
        #expect(rig.logged.contains { $0.contains("2 request(s) unanswered") })
        rig.endInput()
    }

    @Test("a daemon that closes before the input ends, with nothing pending: exit 1 with a message")
    func closedEarly() async throws {
        let rig = try RelayRig()
        defer { rig.close() }
        rig.daemon { end in end.close() }
        let code = await rig.relay.run()
        #expect(code == 1)
        #expect(rig.outputLines().isEmpty)
        #expect(rig.logged.contains { $0.contains("closed the connection before the input ended") })
        rig.endInput()
    }

    @Test("a daemon that refused the connection and closed: its refusal is passed on, though sending to it failed")
    func refusedThenClosed() async throws {
        let rig = try RelayRig()
        defer { rig.close() }
        // The daemon refuses and closes before the request is sent, so sending it fails (EPIPE) while the refusal
        // still waits to be read: the client gets the refusal first, whichever the relay's loop sees first. Then
        // daemon_gone for the request when it was sent; when the daemon's end was read before the request, the
        // request was never sent, and the relay says the daemon closed before the input ended.
        let daemon = DaemonEnd(fd: rig.daemon)
        daemon.send(
            #"{"jsonrpc":"2.0","id":null,"error":{"code":1015,"message":"weatherd: refused","data":{"kind":"peer_refused"}}}"#
        )
        daemon.close()
        rig.type(#"{"jsonrpc":"2.0","id":1,"method":"favorites/list"}"# + "\n")
        let code = await rig.relay.run()
        #expect(code == 1)
        let lines = rig.outputLines()
        #expect(errorOf(lines.first ?? "").kind == "peer_refused", "\(lines)")
        if lines.count == 2 {
            #expect(errorOf(lines[1]).id == 1 && errorOf(lines[1]).kind == "daemon_gone", "\(lines)")
        } else {
            #expect(lines.count == 1, "\(lines)")
            #expect(
                rig.logged.contains { $0.contains("closed the connection before the input ended") }, "\(rig.logged)")
        }
        rig.endInput()
    }

    @Test("a batch's ids are tracked: only the unanswered one gets an error")
    func batch() async throws {
        let rig = try RelayRig()
        defer { rig.close() }
        rig.daemon { end in
            _ = end.readAll()
            end.send(#"[{"jsonrpc":"2.0","id":1,"result":1}]"#)
            end.close()
        }
        rig.type(
            #"[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":2,"method":"b"}]"#
                + "\n")
        rig.endInput()
        let code = await rig.relay.run()
        #expect(code == 1)
        let lines = rig.outputLines()
        #expect(lines.count == 2)
        #expect(errorOf(lines[1]).id == 2)
        #expect(errorOf(lines[1]).kind == "daemon_gone")
    }

    @Test("a line over the limit is answered locally with line_too_long and not sent")
    func lineTooLong() async throws {
        let rig = try RelayRig(maxLineBytes: 64)
        defer { rig.close() }
        let received = Mutex<[String]>([])
        rig.daemon { end in
            let lines = end.readAll()
            received.withLock { $0 = lines }
            end.send(#"{"jsonrpc":"2.0","id":2,"result":"ok"}"#)
            end.close()
        }
        rig.type(
            #"{"jsonrpc":"2.0","id":1,"method":"x","params":{"pad":""# + String(repeating: "p", count: 200) + "\"}}\n")
        rig.type(#"{"jsonrpc":"2.0","id":2,"method":"y"}"# + "\n")
        rig.endInput()
        let code = await rig.relay.run()
        #expect(code == 0)
        #expect(received.withLock { $0 } == [#"{"jsonrpc":"2.0","id":2,"method":"y"}"#])
        let lines = rig.outputLines()
        #expect(lines.count == 2)
        let local = try #require(lines.first { $0.contains("line_too_long") })
        #expect(errorOf(local).id == JSONValue.null)
        #expect(errorOf(local).code == -32600)
        #expect(lines.contains(#"{"jsonrpc":"2.0","id":2,"result":"ok"}"#))
    }

    @Test("stop returns promptly and the daemon sees the connection close")
    func stop() async throws {
        let rig = try RelayRig()
        defer { rig.close() }
        let daemonSawEnd = Mutex(false)
        let daemonGotRequest = Mutex(false)
        rig.daemon { end in
            _ = end.readLine()
            daemonGotRequest.withLock { $0 = true }
            _ = end.readAll()
            daemonSawEnd.withLock { $0 = true }
        }
        rig.type(#"{"jsonrpc":"2.0","id":1,"method":"never"}"# + "\n")
        async let code = rig.relay.run()
        // The request is pending once the daemon has it; stopping then leaves it unanswered (exit 1).
        // A generous wait: on a loaded 2-core machine the relay's task may start late.
        #expect(await eventually { daemonGotRequest.withLock { $0 } })
        // Neither the input nor the daemon ever ends here: only `stop` can end the relay.
        rig.relay.stop()
        #expect(await code == 1)
        #expect(await eventually { daemonSawEnd.withLock { $0 } })
        rig.endInput()
    }

    @Test("after the end of input the daemon is awaited only until the deadline, on the relay's clock")
    func deadline() async throws {
        let rig = try RelayRig(deadline: .seconds(35))
        defer { rig.close() }
        let relayDone = DispatchSemaphore(value: 0)
        rig.daemon { end in
            _ = end.readAll()
            // The daemon never answers and keeps the connection open until the relay has returned: only the
            // deadline can end the relay.
            relayDone.wait()
            end.close()
        }
        rig.type(#"{"jsonrpc":"2.0","id":9,"method":"hang"}"# + "\n")
        rig.endInput()
        async let code = rig.relay.run()
        await rig.clock.sleepers(atLeast: 1, until: rig.clock.now.advanced(by: .seconds(35)))
        rig.clock.advance(by: .seconds(34))
        #expect(rig.clock.sleeperCount == 1, "a second before the deadline the relay still waits")
        rig.clock.advance(by: .seconds(1))
        #expect(await code == 1)
        relayDone.signal()
        let lines = rig.outputLines()
        #expect(lines.count == 1)
        #expect(errorOf(lines[0]).id == 9)
        #expect(errorOf(lines[0]).code == 1013)
    }
}

@Suite("Daemon launcher")
struct DaemonLauncherTests {
    /// Runs `connectOrStart` on a manual clock, advancing it by `step` whenever the launcher pauses, until it is
    /// done: so the launcher's pauses and grace cost no real time, and a child process's own pace decides
    /// nothing but how many pauses pass.
    ///
    /// - Parameter advanced: told the number of each advance, after it (a stand-in daemon that listens late).
    static func launch(
        path: String, lockPath: String? = nil, grace: Duration = .seconds(1), step: Duration = .milliseconds(100),
        advanced: @escaping @Sendable (Int) -> Void = { _ in },
        beforeAdvancing: @escaping @Sendable () async -> Void = {},
        start: @escaping @Sendable () throws -> ChildProcess?
    ) async throws(DaemonLauncher.ConnectError) -> (fd: Int32, elapsed: Duration) {
        let clock = ManualClock()
        let began = clock.now
        let outcome = Promise<Result<Int32, DaemonLauncher.ConnectError>>()
        DaemonLauncher.Launch(
            path: path, lockPath: lockPath, grace: grace, limit: .seconds(300), clock: clock,
            loop: Runtime.testing().loop, start: start
        ).run { outcome.fulfill($0) }
        let ticking = Task {
            var count = 0
            while outcome.current == nil, !Task.isCancelled {
                await clock.sleepers(atLeast: 1)
                await beforeAdvancing()
                guard outcome.current == nil else { break }
                clock.advance(by: step)
                count += 1
                advanced(count)
            }
        }
        let result = await outcome.wait()
        ticking.cancel()
        return (try result.get(), began.duration(to: clock.now))
    }

    @Test("with no daemon, start is called once and the connection made once a daemon listens")
    func startsOne() async throws {
        let folder = ShortTempFolder()
        defer { folder.remove() }
        let path = folder.path + "/d.sock"
        let starts = Mutex(0)
        let listener = ListenerSlot()
        // No process to follow: the grace is only a hang guard here.
        let (fd, _) = try await Self.launch(path: path, grace: .seconds(300)) {
            starts.withLock { $0 += 1 }
            listener.value.withLock { $0 = try? UnixListener(path: path) }
            return nil
        }
        close(fd)
        #expect(starts.withLock { $0 } == 1)
        #expect(listener.value.withLock { $0 } != nil)
        listener.value.withLock { $0?.close() }
    }

    @Test("a daemon already listening is connected to without starting another")
    func alreadyThere() async throws {
        let folder = ShortTempFolder()
        defer { folder.remove() }
        let path = folder.path + "/d.sock"
        let listener = try UnixListener(path: path)
        defer { listener.close() }
        let starts = Mutex(0)
        let (fd, _) = try await Self.launch(path: path) {
            starts.withLock { $0 += 1 }
            return nil
        }
        close(fd)
        #expect(starts.withLock { $0 } == 0)
    }

    @Test("when no daemon comes up and there is no process to follow, it fails after the grace with a clear error")
    func timesOut() async {
        let folder = ShortTempFolder()
        defer { folder.remove() }
        let path = folder.path + "/d.sock"
        do {
            let (fd, _) = try await Self.launch(path: path, grace: .milliseconds(300)) { nil }
            close(fd)
            Issue.record("connected with nothing listening")
        } catch {
            guard case .timedOut(path, let waited) = error else {
                Issue.record("expected a time-out on \(path), got \(error)")
                return
            }
            #expect(error.description.contains("no weatherd daemon was listening on \(path)"))
            #expect(waited >= .milliseconds(300), "the grace passed on the clock first")
        }
    }

    @Test("a started daemon that is still starting is waited for, however long it takes, with no grace at all")
    func followsTheChild() async throws {
        let folder = ShortTempFolder()
        defer { folder.remove() }
        let path = folder.path + "/d.sock"
        let listener = ListenerSlot()
        let child = Mutex<ChildProcess?>(nil)
        // A stand-in daemon: a process that runs, and a listener that comes up only after 50 pauses of 100 ms.
        let (fd, elapsed) = try await Self.launch(
            path: path, grace: .zero,
            advanced: { count in
                if count == 50 { listener.value.withLock { $0 = try? UnixListener(path: path) } }
            }
        ) {
            let process = try DaemonLauncher.spawnDetached(
                executable: "/bin/sh", arguments: ["-c", "sleep 600"], environment: [:])
            child.withLock { $0 = process }
            return process
        }
        close(fd)
        #expect(elapsed >= .seconds(5))
        #expect(listener.value.withLock { $0 } != nil)
        listener.value.withLock { $0?.close() }
        let process = try #require(child.withLock { $0 })
        process.send(SIGKILL)
        #expect(await process.exit(on: Runtime.testing().loop) == .signalled(SIGKILL))
    }

    @Test("a started daemon that exits with nobody listening is started again, then reported with how it ended")
    func childExited() async {
        let folder = ShortTempFolder()
        defer { folder.remove() }
        let path = folder.path + "/d.sock"
        let starts = Mutex(0)
        // The clock moves on only once the process started last has exited: how long a process takes to start
        // and exit on a loaded machine is no verdict (the launcher's 300 s limit is a guard, not a deadline).
        let started = Mutex<[ProcessHandle]>([])
        let loop = Runtime.testing().loop
        do {
            let (fd, _) = try await Self.launch(
                path: path, grace: .zero,
                beforeAdvancing: { await started.withLock { $0.last }?.exit(on: loop) }
            ) {
                starts.withLock { $0 += 1 }
                let child = try DaemonLauncher.spawnDetached(
                    executable: "/bin/sh", arguments: ["-c", "exit 3"], environment: [:])
                // Followed by a pidfd opened before the launcher can reap it, so no later process is taken for it.
                if let handle = ProcessHandle(pid: child.pid) { started.withLock { $0.append(handle) } }
                return child
            }
            close(fd)
            Issue.record("connected with nothing listening")
        } catch {
            guard case .startFailed(let message) = error else {
                Issue.record("expected a failed start, got \(error)")
                return
            }
            #expect(message.contains("exited (exit status 3)"))
        }
        #expect(starts.withLock { $0 } == 3)
    }

    @Test("a data dir held by a weatherd on another socket is reported at once, naming that socket")
    func heldElsewhere() async throws {
        let folder = ShortTempFolder()
        defer { folder.remove() }
        let path = folder.path + "/d.sock"
        let lockPath = folder.path + "/LOCK"
        try Data("\(getpid())\n/run/other.sock\n".utf8).write(to: URL(fileURLWithPath: lockPath))
        do {
            _ = try await Self.launch(path: path, lockPath: lockPath) {
                try DaemonLauncher.spawnDetached(executable: "/bin/sh", arguments: ["-c", "exit 1"], environment: [:])
            }
            Issue.record("connected with nothing listening")
        } catch {
            #expect(error == .heldElsewhere(path: path, pid: getpid(), socket: "/run/other.sock"))
            #expect(error.description.contains("listens on /run/other.sock, not \(path)"))
        }
    }

    @Test("a started daemon that lost the race for the data dir: the lock's holder is waited for")
    func followsTheLockHolder() async throws {
        let folder = ShortTempFolder()
        defer { folder.remove() }
        let path = folder.path + "/d.sock"
        let lockPath = folder.path + "/LOCK"
        // The winner: this test process, named in LOCK as a daemon names itself, listening later.
        try Data("\(getpid())\n\(path)\n".utf8).write(to: URL(fileURLWithPath: lockPath))
        let listener = ListenerSlot()
        let (fd, elapsed) = try await Self.launch(
            path: path, lockPath: lockPath, grace: .zero,
            advanced: { count in
                if count == 20 { listener.value.withLock { $0 = try? UnixListener(path: path) } }
            }
        ) {
            try DaemonLauncher.spawnDetached(executable: "/bin/sh", arguments: ["-c", "exit 1"], environment: [:])
        }
        #expect(elapsed >= .seconds(2), "waited while the lock's holder ran, past the started process's exit")
        close(fd)
        #expect(listener.value.withLock { $0 } != nil)
        listener.value.withLock { $0?.close() }
    }

    /// A listener started elsewhere, kept for the test to check and close.
    final class ListenerSlot: Sendable {
        let value = Mutex<UnixListener?>(nil)
    }

    @Test("a detached child leads its own session, reads /dev/null and inherits no stray descriptor")
    func detached() async throws {
        #if os(Linux)
            let folder = ShortTempFolder()
            defer { folder.remove() }
            let stray = open("/dev/null", O_RDONLY)  // without O_CLOEXEC on purpose
            defer { close(stray) }
            let dir = folder.path
            let script =
                "read -r stat < /proc/$$/stat; echo \"$stat\" > \(dir)/stat.tmp; "
                + "readlink /proc/$$/fd/0 > \(dir)/stdin.tmp; "
                + "if [ -e /proc/$$/fd/\(stray) ]; then echo yes; else echo no; fi > \(dir)/stray.tmp; "
                + "for f in stat stdin stray; do mv \(dir)/$f.tmp \(dir)/$f; done"
            let child = try DaemonLauncher.spawnDetached(
                executable: "/bin/sh", arguments: ["-c", script], environment: ["PATH": "/usr/bin:/bin"])
            let pid = child.pid
            #expect(await child.exit(on: Runtime.testing().loop) == .exited(0))
            #expect(FileManager.default.fileExists(atPath: dir + "/stray"))
            let stat = try String(contentsOfFile: dir + "/stat", encoding: .utf8)
            // Fields after the command's closing parenthesis: state, ppid, pgrp, session.
            let fields = stat[stat.range(of: ")", options: .backwards)!.upperBound...].split(separator: " ")
            #expect(fields.count > 3)
            #expect(Int32(fields[3]) == pid)
            #expect(Int32(fields[2]) == pid)
            #expect(try String(contentsOfFile: dir + "/stdin", encoding: .utf8) == "/dev/null\n")
            #expect(try String(contentsOfFile: dir + "/stray", encoding: .utf8) == "no\n")
        #else
            let child = try DaemonLauncher.spawnDetached(
                executable: "/usr/bin/true", arguments: [], environment: [:])
            #expect(await child.exit(on: Runtime.testing().loop) == .exited(0))
        #endif
    }
}

@Suite("Relay lines: MCP cancellation")
struct RelaySilencedTests {
    @Test("notifications/cancelled names a request the daemon will never answer; nothing else does")
    func silenced() {
        let cancel = #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0,"reason":"x"}}"#
        #expect(RelayLines.judge(Array(cancel.utf8)).silenced == [0])
        let batch = "[" + cancel + #",{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a"}}]"#
        #expect(RelayLines.judge(Array(batch.utf8)).silenced == [0, "a"])
        let request = #"{"jsonrpc":"2.0","id":3,"method":"notifications/cancelled","params":{"requestId":1}}"#
        #expect(RelayLines.judge(Array(request.utf8)).silenced.isEmpty, "a request with an id is answered")
        let other = #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}"#
        #expect(RelayLines.judge(Array(other.utf8)).silenced.isEmpty, "$/cancelRequest's request is still answered")
    }
}
