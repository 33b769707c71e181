import Foundation
import Testing
import WeatherDomain
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("weatherd metrics and --metrics-listen, on the real binary")
struct MetricsEndToEndTests {
    @Test("weatherd metrics prints the daemon's exposition; printing it writes nothing to the log")
    func printsOnce() async throws {
        let shared = try SharedDataDir()
        // An hour: a slow run must not see the daemon idle out (and a new one record its start) between steps.
        let options = ["--data-dir", shared.directory.path, "--idle-exit", "3600"] + quietTimers
        let added = try await runCommand(
            ["favorites", "add", "52.52,13.405", "--name", "Berlin \"Mitte\""] + options,
            environment: shared.environment)
        #expect(added.status == 0, "\(added.errors)")
        let before = try Self.log(shared.directory.path)
        var outputs: [String] = []
        for _ in 0..<3 {
            let run = try await runCommand(["metrics"] + options, environment: shared.environment)
            #expect(run.status == 0, "\(run.errors)")
            outputs.append(run.output)
        }
        let after = try Self.log(shared.directory.path)
        #expect(
            after == before,
            "the log is byte-identical after three scrapes; appended: \(String(decoding: after.last?.dropFirst(before.last?.count ?? 0) ?? Data(), as: UTF8.self))"
        )
        let families = try ExpositionParser.parse(try #require(outputs.last))
        #expect(families["weatherd_build_info"]?.samples.count == 1)
        #expect((families["weatherd_connected_clients"]?.samples.first?.value ?? 0) >= 1, "its own connection at least")
        #expect(families["weatherd_log_events_total"] != nil)
        let json = try await runCommand(["metrics", "--json"] + options, environment: shared.environment)
        let answer = try JSONValue.parse(Array(json.output.utf8))
        #expect(answer["contentType"] == "text/plain; version=0.0.4; charset=utf-8")
        #expect(try ExpositionParser.parse(answer["text"]?.stringValue ?? "").count == families.count)
        try await shared.stopDaemon()
    }

    @Test(
        "weatherd serve --metrics-listen answers GET /metrics with the token beside its socket, and stops cleanly at SIGTERM"
    )
    func servesHTTP() async throws {
        let shared = try SharedDataDir()
        let daemon = try RunningWeatherd(
            arguments: [
                "serve", "--data-dir", shared.directory.path, "--socket", try shared.socketPath, "--log-level", "info",
                "--metrics-listen", "127.0.0.1:0",
            ] + quietTimers, environment: shared.environment)
        let announced = "HTTP on http://127.0.0.1:"
        #expect(await eventually { daemon.standardError.contains(announced) }, "\(daemon.standardError)")
        let line = try #require(daemon.standardError.split(separator: "\n").first { $0.contains(announced) })
        let port = try #require(Int(line.split(separator: ":").last?.split(separator: "/").first ?? ""))
        let before = try Self.log(shared.directory.path)
        let refused = try await ScrapeConnection.exchange(port: port, ScrapeConnection.scrape)
        #expect(refused.status == 401, "the metrics name the places: they need the token")
        let token = try String(contentsOfFile: shared.directory.path + "/http-token", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        for _ in 0..<20 {
            let answer = try await ScrapeConnection.exchange(port: port, ScrapeConnection.scrape(token: token))
            #expect(answer.status == 200)
            #expect(try ExpositionParser.parse(answer.body)["weatherd_build_info"] != nil)
        }
        #expect(try await ScrapeConnection.exchange(port: port, "GET /no/such HTTP/1.0\r\n\r\n").status == 404)
        #expect(try Self.log(shared.directory.path) == before, "scrapes write nothing to the log")
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit() == 0)
    }

    @Test("serve refuses a non-loopback --metrics-listen without --metrics-allow-remote (exit 64)")
    func refusesRemote() async throws {
        let directory = TemporaryDataDirectory()
        let run = try await runCommand([
            "serve", "--data-dir", directory.path, "--metrics-listen", "0.0.0.0:9466",
        ])
        #expect(run.status == 64)
        #expect(run.errors.contains("--http-allow-remote"), "\(run.errors)")
    }

    /// The event log's files in `directory`, in name order.
    static func log(_ directory: String) throws -> [Data] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix("events") }.sorted()
            .map { try Data(contentsOf: URL(fileURLWithPath: directory + "/" + $0)) }
    }
}
