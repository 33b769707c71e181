import Foundation
import Testing
import WeatherDomain
import WeatherService
import WeatherTesting

/// The HTTP article's configs, as a reader copies them: Home Assistant's REST sensor and REST command, and an MCP
/// host's block for a URL server, each read from the article and sent to a face as the program would send it.
@Suite("The HTTP face's article: its Home Assistant YAML and MCP host config work as written")
struct HTTPArticleTests {
    static let article = OptionDocsTests.articles.appendingPathComponent("HTTP.md")

    /// The body of the article's first ```` ```language ```` block.
    static func block(_ language: String) throws -> [String] {
        let lines = try String(contentsOf: article, encoding: .utf8).components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "```\(language)"))
        let end = try #require(lines[(start + 1)...].firstIndex(of: "```"))
        return Array(lines[(start + 1)..<end])
    }

    /// The value of `key:` on the first line at or after `from` that has it, unquoted.
    static func value(_ key: String, in lines: [String], from: Int = 0) throws -> (String, Int) {
        let index = try #require(
            lines[from...].firstIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix(key + ":") })
        var value = lines[index].split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces)
        if let first = value.first, first == "'" || first == "\"", value.last == first {
            value = String(value.dropFirst().dropLast())
        }
        return (value, index)
    }

    /// `url` on this test's listener: the article's port 9466 is the test's.
    static func target(_ url: String) throws -> String {
        let prefix = "http://127.0.0.1:9466"
        try #require(url.hasPrefix(prefix), "\(url)")
        return String(url.dropFirst(prefix.count))
    }

    @Test("the REST sensor's resource answers its value_template and attributes; the REST command refreshes the city")
    func homeAssistant() async throws {
        let yaml = try Self.block("yaml")
        let (resource, sensorLine) = try Self.value("resource", in: yaml)
        let (template, _) = try Self.value("value_template", in: yaml, from: sensorLine)
        let (attributesPath, _) = try Self.value("json_attributes_path", in: yaml, from: sensorLine)
        let (attributes, _) = try Self.value("json_attributes", in: yaml, from: sensorLine)
        let (commandURL, commandLine) = try Self.value("url", in: yaml)
        let (method, _) = try Self.value("method", in: yaml, from: commandLine)
        let (contentType, _) = try Self.value("content_type", in: yaml, from: commandLine)
        let (payload, _) = try Self.value("payload", in: yaml, from: commandLine)
        #expect(try Self.value("Authorization", in: yaml, from: sensorLine).0 == "!secret weatherd_auth")
        // secrets.yaml holds `Bearer TOKEN`, as the article says.
        let authorization = "Authorization: Bearer \(testToken)"

        try await WttrRouteTests.serving { _, port in
            let sensor = try await HTTPAPITests.ask(port, "GET", try Self.target(resource), headers: [authorization])
            #expect(sensor.status == 200)
            let json = try JSONValue.parse(sensor.body)
            // value_template: "{{ value_json.current.temperature }}"
            let path = template.replacingOccurrences(of: "{{", with: "").replacingOccurrences(of: "}}", with: "")
                .trimmingCharacters(in: .whitespaces).split(separator: ".").dropFirst()
            let value = path.reduce(json as JSONValue?) { $0?[String($1)] }
            #expect(value?.doubleValue == 3, "\(template) → \(String(describing: value))")
            // json_attributes_path: "$.current", json_attributes: [humidity, windSpeed, condition]
            let object = attributesPath.dropFirst(2).split(separator: ".").reduce(json as JSONValue?) {
                $0?[String($1)]
            }
            let names = attributes.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(names.count == 3)
            for name in names { #expect(object?[name] != nil, "attribute \(name)") }

            let body = payload.replacingOccurrences(of: "{{ city }}", with: "Berlin")
            let refreshed = try await HTTPAPITests.ask(
                port, method.uppercased(), try Self.target(commandURL),
                headers: [authorization, "Content-Type: \(contentType)"], body: body)
            #expect(refreshed.status == 200, "\(refreshed.text)")
            #expect(
                try JSONValue.parse(refreshed.body)["results"]?.arrayValue?.first?["ok"] == true, "\(refreshed.text)")
        }
    }

    @Test("the MCP host's block: its url and headers open a session")
    func mcpHost() async throws {
        let config = try JSONValue.parse(try Self.block("json").joined(separator: "\n"))
        let server = try #require(config["mcpServers"]?["weatherd"])
        #expect(server["type"] == "http")
        let url = try #require(server["url"]?.stringValue)
        let header = try #require(server["headers"]?["Authorization"]?.stringValue)
        #expect(header == "Bearer TOKEN")
        try await WttrRouteTests.serving { _, port in
            let initialize: JSONValue = [
                "jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": [
                    "protocolVersion": "2025-06-18", "capabilities": [:],
                    "clientInfo": ["name": "host", "version": "1"],
                ],
            ]
            let answer = try await HTTPAPITests.ask(
                port, "POST", try Self.target(url),
                headers: [
                    "Authorization: " + header.replacingOccurrences(of: "TOKEN", with: testToken),
                    MCPOverHTTPTests.json, MCPOverHTTPTests.accept,
                ], body: initialize.jsonString)
            #expect(answer.status == 200)
            #expect(answer.headers["mcp-session-id"] != nil)
        }
    }
}
