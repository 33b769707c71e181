import Foundation
import Testing
import WeatherDomain
import WeatherTesting

/// A real weatherd spoken to as an MCP client would, with Open-Meteo bodies served on 127.0.0.1.
struct MCPHarness {
    let weatherd: RunningWeatherd
    let server: LocalHTTPServer
    let directory: TemporaryDataDirectory
    /// Set when weatherd is a relay to a shared daemon (`relay: true`).
    let shared: SharedDataDir?

    /// Starts weatherd against a local stand-in; with `holdWeather` it holds every weather answer (and the upstream
    /// deadline is the longest, so only a cancel or a shutdown ends such a call). With `relay`, the client is a
    /// relay to the data dir's shared daemon (as hosts run it), else `--standalone`.
    static func start(holdWeather: Bool = false, relay: Bool = false) throws -> MCPHarness {
        let server = try LocalHTTPServer()
        server.route(
            "/v1/search",
            .init(
                body: OpenMeteoBodies.geocode([
                    ("Berlin", "DE", "State of Berlin", 52.52, 13.41), ("Bern", "CH", nil, 46.95, 7.45),
                ])))
        server.route(
            "/v1/forecast", query: "current=",
            .init(body: OpenMeteoBodies.current(temperature: 4.5), held: holdWeather))
        server.route(
            "/v1/forecast", query: "hourly=", .init(body: OpenMeteoBodies.forecast(), held: holdWeather))
        // Berlin's warnings come from Bright Sky (DWD by municipality): none in force.
        server.route("/alerts", .init(body: Array(#"{"alerts":[],"location":{"warn_cell_id":111000000}}"#.utf8)))
        var options = [
            "--open-meteo-base-url", server.baseURL, "--open-meteo-geocoding-base-url", server.baseURL,
            "--nws-base-url", server.baseURL, "--meteoalarm-base-url", server.baseURL, "--brightsky-base-url",
            server.baseURL,
            "--open-meteo-air-quality-base-url", server.baseURL,
        ]
        if holdWeather { options += ["--upstream-timeout", "600"] }
        if relay {
            let shared = try SharedDataDir()
            return MCPHarness(
                weatherd: try shared.client(options), server: server, directory: shared.directory, shared: shared)
        }
        let directory = TemporaryDataDirectory()
        let weatherd = try startWeatherd(directory, options)
        return MCPHarness(weatherd: weatherd, server: server, directory: directory, shared: nil)
    }

    /// `initialize` then `notifications/initialized`; returns the initialize response.
    @discardableResult
    func initialize(_ version: String = "2025-11-25") async throws -> JSONValue {
        let response = try await weatherd.call(
            "initialize",
            [
                "protocolVersion": .string(version), "capabilities": [:],
                "clientInfo": ["name": "weatherd-tests", "version": "1"],
            ])
        try weatherd.send(line: #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        return response
    }

    /// A `tools/call`; returns the whole response.
    func tool(_ name: String, _ arguments: JSONValue = [:], meta: JSONValue? = nil) async throws -> JSONValue {
        var params: [String: JSONValue] = ["name": .string(name), "arguments": arguments]
        if let meta { params["_meta"] = meta }
        return try await weatherd.call("tools/call", .object(params))
    }

    /// Every output line so far, decoded.
    func messages() throws -> [JSONValue] { try weatherd.output.messages() }

    /// Closes stdin and waits for a clean exit; through a relay, then also stops the daemon, so the log
    /// ends as a standalone weatherd's does.
    func stop() async throws -> Int32? {
        try weatherd.closeInput()
        let code = await weatherd.waitForExit()
        try await shared?.stopDaemon()
        return code
    }
}

/// The `_meta` of a 2026-07-28 request.
let statelessMeta: JSONValue = [
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": [:],
    "io.modelcontextprotocol/clientInfo": ["name": "weatherd-tests", "version": "1"],
]

/// The structured result of a tool call, decoded from its text block.
func toolText(_ response: JSONValue) throws -> JSONValue {
    // The JSON is the last text block: get_alerts, get_warnings and get_air_quality put a summary line first.
    let text = try #require(response["result"]?["content"]?.arrayValue?.last?["text"]?.stringValue)
    return try JSONValue.parse(Array(text.utf8))
}
