import Foundation
import Synchronization
import Testing
import WeatherDomain
import WeatherTesting

/// The MCP specification's JSON Schemas, one per version, copied into `MCPSchemas/` (see its README),
/// and checks of what weatherd sends against them.
enum MCPSchemas {
    private static let loaded = Mutex<[String: JSONSchema]>([:])

    /// The schema of `version`.
    static func schema(_ version: String) throws -> JSONSchema {
        if let schema = loaded.withLock({ $0[version] }) { return schema }
        let path = Repository.root.appendingPathComponent("Tests/EndToEndTests/MCPSchemas/\(version).schema.json").path
        let schema = try JSONSchema(contentsOf: path)
        loaded.withLock { $0[version] = schema }
        return schema
    }

    /// Expects `value` to be valid against `definition` of `version`'s schema.
    static func expectValid(
        _ value: JSONValue, _ definition: String, version: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let loaded: JSONSchema
        do {
            loaded = try schema(version)
        } catch {
            Issue.record("the \(version) schema cannot be read: \(error)", sourceLocation: sourceLocation)
            return
        }
        let problems = loaded.validate(value, definition: definition)
        #expect(problems.isEmpty, "\(definition) (\(version)): \(problems)", sourceLocation: sourceLocation)
    }
}
