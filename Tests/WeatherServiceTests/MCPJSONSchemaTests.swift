import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("JSON Schema validator on the MCP specification's schemas")
struct MCPJSONSchemaTests {
    /// The protocol versions whose published schemas are copied into `Tests/EndToEndTests/MCPSchemas`.
    static let versions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]

    /// The copied schema of `version`.
    static func schema(_ version: String) throws -> JSONSchema {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../EndToEndTests/MCPSchemas/\(version).schema.json").standardized
        return try JSONSchema(contentsOf: url.path)
    }

    /// The first result a server answering in `version` sends (`initialize`, or `server/discover` from 2026-07-28 on):
    /// the definition it must match, the value, a required member, and a member that must be a string.
    static func serverResult(_ version: String) -> (
        definition: String, value: JSONValue, required: String, text: String
    ) {
        let serverInfo: JSONValue = ["name": "weatherd", "version": "1.0.0"]
        let capabilities: JSONValue = [
            "tools": ["listChanged": true], "resources": ["subscribe": true, "listChanged": true], "logging": [:],
        ]
        if version >= "2026-07-28" {
            let result: JSONValue = [
                "supportedVersions": [.string(version)], "capabilities": capabilities, "cacheScope": "public",
                "ttlMs": 60_000, "resultType": "complete", "instructions": "Ask for the weather.",
                "_meta": ["io.modelcontextprotocol/serverInfo": serverInfo],
            ]
            return ("DiscoverResult", result, "capabilities", "resultType")
        }
        let result: JSONValue = [
            "protocolVersion": .string(version), "capabilities": capabilities, "serverInfo": serverInfo,
            "instructions": "Ask for the weather.",
        ]
        return ("InitializeResult", result, "serverInfo", "protocolVersion")
    }

    /// What every result of `version` carries besides its own members (2026-07-28 made `resultType` required, and
    /// `cacheScope` and `ttlMs` on cacheable results).
    static func resultBase(_ version: String, cacheable: Bool = false) -> [String: JSONValue] {
        guard version >= "2026-07-28" else { return [:] }
        return cacheable ? ["resultType": "complete", "cacheScope": "public", "ttlMs": 0] : ["resultType": "complete"]
    }

    /// A `tools/list` result for `version` with one tool.
    static func toolsList(_ version: String) -> JSONValue {
        let tool: JSONValue = [
            "name": "forecast", "description": "The forecast for a place.",
            "inputSchema": ["type": "object", "properties": ["place": ["type": "string"]], "required": ["place"]],
        ]
        return .object(resultBase(version, cacheable: true).merging(["tools": [tool]]) { $1 })
    }

    /// The definition of a successful JSON-RPC response envelope in `version` (2025-11-25 still calls it
    /// `JSONRPCResponse`; 2026-07-28 renamed it, and `JSONRPCResponse` became the union of success and error).
    static func successEnvelope(_ version: String) -> String {
        version >= "2026-07-28" ? "JSONRPCResultResponse" : "JSONRPCResponse"
    }

    /// The definition of a JSON-RPC error response envelope in `version`.
    static func errorEnvelope(_ version: String) -> String {
        version >= "2026-07-28" ? "JSONRPCErrorResponse" : "JSONRPCError"
    }

    @Test("every copied schema is a draft-07 or 2020-12 document with definitions", arguments: versions)
    func loads(version: String) throws {
        let schema = try Self.schema(version)
        #expect(schema.definitionNames.count > 40)
        #expect(schema.definitionNames.contains("JSONRPCNotification"))
    }

    @Test("every keyword the copied schemas use is implemented or an annotation", arguments: versions)
    func keywordsKnown(version: String) throws {
        let schema = try Self.schema(version)
        var found: Set<String> = []
        Self.collectKeywords(schema.document, into: &found)
        let understood: Set<String> = [
            "type", "properties", "required", "additionalProperties", "patternProperties", "items", "prefixItems",
            "enum", "const", "$ref", "anyOf", "oneOf", "allOf", "not", "minimum", "maximum", "exclusiveMinimum",
            "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems", "pattern", "format",
            "description", "title", "$schema", "$id", "default", "examples", "deprecated", "readOnly", "$comment",
            "$defs", "definitions",
        ]
        #expect(found.subtracting(understood) == [])
    }

    /// Adds the keywords of `schema` and of every subschema in it to `found`.
    static func collectKeywords(_ schema: JSONValue, into found: inout Set<String>) {
        guard case .object(let keywords) = schema else { return }
        for (keyword, argument) in keywords {
            found.insert(keyword)
            switch keyword {
            case "properties", "patternProperties", "$defs", "definitions":
                for sub in argument.objectValue?.values.map({ $0 }) ?? [] { collectKeywords(sub, into: &found) }
            case "items", "additionalProperties", "not":
                collectKeywords(argument, into: &found)
            case "anyOf", "oneOf", "allOf", "prefixItems":
                for sub in argument.arrayValue ?? [] { collectKeywords(sub, into: &found) }
            default:
                continue
            }
        }
    }

    @Test("a server's first result passes, and fails naming a removed or mistyped member", arguments: versions)
    func serverResult(version: String) throws {
        let schema = try Self.schema(version)
        let (definition, value, required, text) = Self.serverResult(version)
        #expect(schema.validate(value, definition: definition) == [])

        var members = try #require(value.objectValue)
        members[required] = nil
        let missing = schema.validate(.object(members), definition: definition)
        #expect(missing.contains { $0.hasPrefix("$.\(required): required member is missing") }, "\(missing)")

        members = try #require(value.objectValue)
        members[text] = 20_241_105
        let mistyped = schema.validate(.object(members), definition: definition)
        #expect(mistyped.contains { $0.hasPrefix("$.\(text): expected string, found integer") }, "\(mistyped)")
    }

    @Test("a tools/call result passes, and content that is not a content block fails", arguments: versions)
    func callToolResult(version: String) throws {
        let schema = try Self.schema(version)
        let base = Self.resultBase(version)
        let valid = base.merging(["content": [["type": "text", "text": "Berlin: 12 °C"]], "isError": false]) { $1 }
        #expect(schema.validate(.object(valid), definition: "CallToolResult") == [])
        let invalid = base.merging(["content": [["type": "text", "text": 12]]]) { $1 }
        let problems = schema.validate(.object(invalid), definition: "CallToolResult")
        #expect(problems.contains { $0.hasPrefix("$.content[0]: matches none of the") }, "\(problems)")
        #expect(problems.contains { $0.contains("$.content[0].text: expected string, found integer") }, "\(problems)")
    }

    @Test("a tools/list result passes, and a tool whose input schema is not an object fails", arguments: versions)
    func toolsList(version: String) throws {
        let schema = try Self.schema(version)
        let valid = Self.toolsList(version)
        #expect(schema.validate(valid, definition: "ListToolsResult") == [])
        let invalid: JSONValue = ["tools": [["name": "forecast", "inputSchema": ["type": "array"]]]]
        let problems = schema.validate(invalid, definition: "ListToolsResult")
        #expect(problems.contains { $0.hasPrefix("$.tools[0].inputSchema.type: expected \"object\"") }, "\(problems)")
    }

    @Test("JSON-RPC response and notification envelopes pass, and a wrong jsonrpc fails", arguments: versions)
    func envelopes(version: String) throws {
        let schema = try Self.schema(version)
        let envelope = Self.successEnvelope(version)
        let result = JSONValue.object(Self.resultBase(version))
        let response: JSONValue = ["jsonrpc": "2.0", "id": 1, "result": result]
        #expect(schema.validate(response, definition: envelope) == [])
        let notification: JSONValue = ["jsonrpc": "2.0", "method": "notifications/tools/list_changed"]
        #expect(schema.validate(notification, definition: "JSONRPCNotification") == [])
        let wrong: JSONValue = ["jsonrpc": "1.0", "id": "a", "result": result]
        let problems = schema.validate(wrong, definition: envelope)
        #expect(problems.contains { $0.hasPrefix("$.jsonrpc: expected \"2.0\"") }, "\(problems)")
        let noID = schema.validate(["jsonrpc": "2.0", "result": result], definition: envelope)
        #expect(noID.contains { $0.hasPrefix("$.id: required member is missing") }, "\(noID)")
    }

    @Test("a JSON-RPC error response passes, and one whose error has no code fails", arguments: versions)
    func errorEnvelope(version: String) throws {
        let schema = try Self.schema(version)
        let envelope = Self.errorEnvelope(version)
        #expect(schema.definitionNames.contains(envelope))
        let error: JSONValue = ["jsonrpc": "2.0", "id": 1, "error": ["code": -32601, "message": "Method not found"]]
        #expect(schema.validate(error, definition: envelope) == [])
        let noCode: JSONValue = ["jsonrpc": "2.0", "id": 1, "error": ["message": "Method not found"]]
        let problems = schema.validate(noCode, definition: envelope)
        #expect(problems.contains { $0.hasPrefix("$.error.code: required member is missing") }, "\(problems)")
    }
}
