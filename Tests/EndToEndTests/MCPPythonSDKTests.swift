import Foundation
import Testing
import WeatherDomain
import WeatherService
import WeatherTesting

/// The official MCP Python SDK's Streamable HTTP client against `/mcp` of a real daemon.
///
/// The SDK is a client library from PyPI, not a server Debian packages: `.ci/run` installs it into
/// `.build/mcp-venv` when PyPI can be reached (or `WEATHERD_MCP_PYTHON` names a Python that has it). Without
/// it the test is skipped and says why.
@Suite("MCP over HTTP with the official MCP Python SDK's client")
struct MCPPythonSDKTests {
    static let python: String? = {
        let candidates: [String?] = [
            ProcessInfo.processInfo.environment["WEATHERD_MCP_PYTHON"],
            Repository.root.appendingPathComponent(".build/mcp-venv/bin/python").path,
        ]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static let script = """
        import anyio, os, sys
        from mcp.client.session import ClientSession
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        async def main(url, token):
            client = create_mcp_http_client(headers={"Authorization": "Bearer " + token})
            async with client:
                async with streamable_http_client(url, http_client=client) as streams:
                    async with ClientSession(streams[0], streams[1]) as session:
                        init = await session.initialize()
                        print("protocol", init.protocol_version, init.server_info.name)
                        tools = await session.list_tools()
                        print("tools", " ".join(sorted(t.name for t in tools.tools)))
                        result = await session.call_tool("get_current_weather", {"lat": 52.52, "lon": 13.41})
                        print("error", result.is_error)
                        print("text", result.content[0].text)
                        resources = await session.list_resources()
                        print("resources", " ".join(str(r.uri) for r in resources.resources))

        anyio.run(main, sys.argv[1], os.environ["WEATHERD_TOKEN"])
        """

    @Test(
        "initialize, tools/list, tools/call and resources/list through the SDK's client answer as on stdio",
        .enabled(if: python != nil, "the MCP Python SDK is not installed (.ci/run puts it in .build/mcp-venv)"))
    func officialClient() async throws {
        let python = try #require(Self.python)
        let server = try LocalHTTPServer()
        server.route("/v1/forecast", query: "current=", .init(body: OpenMeteoBodies.current(temperature: 6)))
        let shared = try SharedDataDir()
        let client = try shared.client(["--http-listen", "127.0.0.1:0", "--open-meteo-base-url", server.baseURL])
        let url = try #require(try await client.call("service/status")["result"]?["http"]?["url"]?.stringValue)
        let token = try #require(try HTTPToken.load(dataDirectory: shared.directory.path)).text
        let scriptPath = shared.directory.path + "/client.py"
        try Self.script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        // The token goes by the environment, never on a command line.
        let run = try await runCommand(
            [scriptPath, url + "mcp"], environment: ["WEATHERD_TOKEN": token, "NO_PROXY": "*", "no_proxy": "*"],
            executable: python)
        #expect(run.status == 0, "\(run.errors)")
        let lines = Dictionary(
            run.lines.map { line in
                let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
                return (parts[0], parts.count > 1 ? parts[1] : "")
            }, uniquingKeysWith: { first, _ in first })
        #expect(lines["protocol"]?.hasSuffix(" weatherd") == true, "\(run.output)")
        // The same tools as a stdio client of that version gets.
        let version = String(lines["protocol"]?.split(separator: " ").first ?? "")
        _ = try await client.call(
            "initialize", ["protocolVersion": .string(version), "capabilities": [:], "clientInfo": ["name": "stdio"]])
        let stdio = try await client.call("tools/list")["result"]?["tools"]?.arrayValue?.compactMap(
            \.["name"]?.stringValue)
        #expect(lines["tools"] == stdio?.sorted().joined(separator: " "))
        #expect(lines["error"] == "False")
        #expect(lines["text"]?.contains("6 °C") == true, "\(run.output)")
        #expect(lines["resources"]?.contains("weather://favorites") == true)
        try client.closeInput()
        #expect(await client.waitForExit() == 0)
        try await shared.stopDaemon()
    }
}
