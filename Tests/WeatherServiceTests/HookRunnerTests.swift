import Foundation
import Synchronization
import Testing
import WeatherDomain
import WeatherTesting

@testable import WeatherCLI

@Suite("weatherd notify --exec: environment, standard input, at most 4 at a time, the timeout")
struct HookRunnerTests {
    static let notice = AlertNotice(
        .object([
            "id": "alert-3", "rule": "severe", "place": .object(["name": "Ber\"lin"]), "message": "Storm at 14:00.",
            "details": .object([:]),
        ]))

    /// The lines a runner logged.
    final class Logged: Sendable {
        let lines = Mutex<[String]>([])
        func withLock<T>(_ body: ([String]) -> T) -> T { lines.withLock { body($0) } }
    }

    /// A runner on `clock` whose log lines the test reads, running until the test ends.
    static func runner(_ command: String, clock: ManualClock) -> (HookRunner, Logged, Task<Void, Never>) {
        let lines = Logged()
        let runner = HookRunner(command: command, runtime: .testing(clock: clock)) { line in
            lines.lines.withLock { $0.append(line) }
        }
        let task = Task { await runner.run() }
        return (runner, lines, task)
    }

    @Test("the alert's JSON on stdin and the four variables in the environment; the exit status and stderr logged")
    func environmentAndInput() async throws {
        let directory = TemporaryDataDirectory()
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let clock = ManualClock()
        let (runner, lines, task) = Self.runner(
            #"cat > "$D/stdin"; env | grep ^WEATHERD_ | sort > "$D/env"; printf 'oops\033[31m' >&2; exit 3"#
                .replacingOccurrences(of: "$D", with: directory.path), clock: clock)
        defer { task.cancel() }
        let alert: JSONValue = ["id": "alert-3", "rule": "severe", "message": "Storm at 14:00."]
        runner.submit(Self.notice, alert)
        let logged = await eventually { lines.withLock { !$0.isEmpty } }
        #expect(logged)
        #expect(
            lines.withLock { $0 } == [#"hook for alert-3 (severe): exited with status 3; stderr: oops\u{1B}[31m"#])
        let input = try String(contentsOfFile: directory.path + "/stdin", encoding: .utf8)
        #expect(try JSONValue.parse(input) == alert)
        let environment = try String(contentsOfFile: directory.path + "/env", encoding: .utf8)
        #expect(
            environment.split(separator: "\n") == [
                "WEATHERD_ALERT_RULE=severe", "WEATHERD_PLACE=Ber\"lin", "WEATHERD_SEVERITY=Severe",
                "WEATHERD_TEXT=Storm at 14:00.",
            ])
    }

    @Test("at most 4 run at once; the rest wait their turn and all run")
    func concurrency() async throws {
        let directory = TemporaryDataDirectory()
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let clock = ManualClock()
        let (runner, lines, task) = Self.runner(
            #"echo x >> "$D/started"; while [ ! -e "$D/go" ]; do sleep 0.05; done"#
                .replacingOccurrences(of: "$D", with: directory.path), clock: clock)
        defer { task.cancel() }
        for number in 1...6 { runner.submit(Self.notice, ["id": .string("alert-\(number)"), "rule": "severe"]) }
        // Each run waits on the clock for its timeout: four sleepers are four runs.
        await clock.sleepers(atLeast: 4)
        let started = { (try? String(contentsOfFile: directory.path + "/started", encoding: .utf8)) ?? "" }
        #expect(await eventually { started().split(separator: "\n").count == 4 })
        #expect(clock.sleeperCount == 4, "a fifth run started")
        #expect(lines.withLock { $0.isEmpty })
        _ = FileManager.default.createFile(atPath: directory.path + "/go", contents: nil)
        #expect(await eventually { runner.succeeded == 6 })
        #expect(started().split(separator: "\n").count == 6)
        #expect(lines.withLock { $0.isEmpty }, "a run that exits 0 is counted, not logged")
    }

    @Test("successes are counted and said once, when the runner ends; each failure is logged as it happens")
    func successesCounted() async throws {
        let clock = ManualClock()
        let (runner, lines, task) = Self.runner(
            #"read -r line; case "$line" in *alert-2*) exit 4;; esac"#, clock: clock)
        for number in 1...3 { runner.submit(Self.notice, ["id": .string("alert-\(number)"), "rule": "severe"]) }
        #expect(await eventually { runner.succeeded == 2 && lines.withLock { !$0.isEmpty } })
        #expect(lines.withLock { $0 } == ["hook for alert-2 (severe): exited with status 4"])
        runner.finish()
        await task.value
        #expect(
            lines.withLock { $0 } == [
                "hook for alert-2 (severe): exited with status 4", "hook: 2 runs exited with status 0",
            ])
    }

    @Test("after 30 s on the clock SIGTERM, and SIGKILL 5 s later for a hook that ignores it")
    func timeout() async throws {
        let clock = ManualClock()
        // The hook says when its trap is set (a file appears), so SIGTERM never comes before the trap does.
        let ready = NSTemporaryDirectory() + "weatherd-hook-ready-\(UUID().uuidString)"
        defer { unlink(ready) }
        let (runner, lines, task) = Self.runner(
            "trap '' TERM; echo waiting >&2; : > '\(ready)'; sleep 1000", clock: clock)
        defer { task.cancel() }
        runner.submit(Self.notice, ["id": "alert-1", "rule": "severe"])
        await clock.sleepers(atLeast: 1, until: clock.now.advanced(by: .seconds(30)))
        #expect(await eventually { FileManager.default.fileExists(atPath: ready) }, "the hook set its trap")
        clock.advance(by: .seconds(30))
        await clock.sleepers(atLeast: 1, until: clock.now.advanced(by: .seconds(5)))
        #expect(lines.withLock { $0.isEmpty }, "SIGTERM was ignored")
        clock.advance(by: .seconds(5))
        #expect(await eventually { !lines.withLock { $0.isEmpty } })
        #expect(
            lines.withLock { $0 } == [
                "hook for alert-1 (severe): killed by signal 9 (timed out after 30.0 seconds); stderr: waiting"
            ])

        let (polite, politeLines, politeTask) = Self.runner("sleep 1000", clock: clock)
        defer { politeTask.cancel() }
        polite.submit(Self.notice, ["id": "alert-2", "rule": "severe"])
        await clock.sleepers(atLeast: 1, until: clock.now.advanced(by: .seconds(30)))
        clock.advance(by: .seconds(30))
        #expect(await eventually { !politeLines.withLock { $0.isEmpty } })
        #expect(
            politeLines.withLock { $0 } == [
                "hook for alert-2 (severe): killed by signal 15 (timed out after 30.0 seconds)"
            ])
    }
}
