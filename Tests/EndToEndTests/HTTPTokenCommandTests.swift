import Foundation
import Testing
import WeatherService
import WeatherTesting

@Suite("weatherd http-token: prints the HTTP face's token, refuses one others may read")
struct HTTPTokenCommandTests {
    @Test("no token yet: exit 1 and how it is made; then the token, exactly; a token file others may read: refused")
    func printsTheToken() async throws {
        let directory = TemporaryDataDirectory()
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let none = try await runCommand(["http-token", "--data-dir", directory.path])
        #expect(none.status == 1)
        #expect(none.output.isEmpty)
        #expect(none.errors.contains("serve --http-listen"), "\(none.errors)")
        let made = try HTTPToken.loadOrCreate(dataDirectory: directory.path)
        let printed = try await runCommand(["http-token", "--data-dir", directory.path])
        #expect(printed.status == 0)
        #expect(printed.output == made.text + "\n")
        #expect(made.text.count == 64)
        let path = directory.path + "/" + HTTPToken.fileName
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let exposed = try await runCommand(["http-token", "--data-dir", directory.path])
        #expect(exposed.status == 1)
        #expect(exposed.output.isEmpty, "an exposed token is not printed")
        #expect(exposed.errors.contains("chmod 600"))
    }
}

@Suite("weatherd open: a one-time link from the running daemon, on the real binary")
struct OpenCommandTests {
    @Test("weatherd open prints the daemon's URL with a code a browser trades once for a session; without HTTP, exit 1")
    func printsALink() async throws {
        let shared = try SharedDataDir()
        let options = ["--data-dir", shared.directory.path, "--idle-exit", "3600"] + quietTimers
        let daemon = try RunningWeatherd(
            arguments: [
                "serve", "--socket", try shared.socketPath, "--log-level", "info", "--http-listen", "127.0.0.1:0",
            ]
                + options, environment: shared.environment)
        let announced = "HTTP on http://127.0.0.1:"
        #expect(await eventually { daemon.standardError.contains(announced) }, "\(daemon.standardError)")
        let line = try #require(daemon.standardError.split(separator: "\n").first { $0.contains(announced) })
        let port = try #require(Int(line.split(separator: ":").last?.split(separator: "/").first ?? ""))

        let opened = try await runCommand(["open"] + options, environment: shared.environment)
        #expect(opened.status == 0, "\(opened.errors)")
        let prefix = "http://127.0.0.1:\(port)/?code="
        #expect(opened.output.hasPrefix(prefix), "\(opened.output)")
        let target = "/?code=" + opened.output.dropFirst(prefix.count).trimmingCharacters(in: .whitespacesAndNewlines)
        // Each request on a connection of its own: a kept-alive one would idle out after the daemon's 10 s of
        // real time on a machine slow enough to take that long between requests.
        func get(_ target: String, _ headers: [String] = []) async throws -> HTTPTestClient.Answer {
            let client = try HTTPTestClient(port: port)
            await client.send(HTTPTestClient.get(target, headers + ["Connection: close"]))
            return try #require(await client.answer())
        }
        let traded = try await get(target)
        #expect(traded.status == 303)
        let session = try #require(traded.headers["set-cookie"]?.split(separator: ";").first.map(String.init))
        let page = try await get("/", ["Cookie: " + session, "Accept: text/html"])
        #expect(page.status == 200)
        #expect(page.text.contains("<title>weatherd</title>"))
        #expect(try await get(target).status == 403, "the code worked once")
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit() == 0)

        // A daemon started without --http-listen (the next command starts one) has no link to give.
        let none = try await runCommand(["open"] + options, environment: shared.environment)
        #expect(none.status == 1)
        #expect(none.output.isEmpty)
        #expect(none.errors.contains("--http-listen"), "\(none.errors)")
    }
}
