import Foundation
import WeatherDomain

/// A JSON Schema document (draft-07 and 2020-12 subsets) that validates `JSONValue`s; for tests.
///
/// Only the keywords listed in `JSONSchema.Validator` are understood. Any other keyword met while validating is
/// reported as a problem ("unsupported keyword …"), so a test can never pass because a rule was skipped.
/// Annotation keywords (`description`, `title`, `default`, …) are ignored, as the specification says.
/// Siblings of `$ref` are applied as well (2020-12 semantics); in draft-07 they would be ignored, which can only
/// make this validator stricter, never more lenient.
package struct JSONSchema: Sendable {
    /// The whole document; `$ref`s resolve against it.
    package let document: JSONValue

    /// A schema over an already parsed document.
    package init(document: JSONValue) {
        self.document = document
    }

    /// Reads and parses the schema document at `path`.
    ///
    /// - Throws: the file system's error, or `JSONParseError` for a file that is not JSON.
    package init(contentsOf path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        self.init(document: try JSONValue.parse(data, maxDepth: 512))
    }

    /// The names under `definitions` (draft-07) or `$defs` (2020-12).
    package var definitionNames: [String] {
        let defs = document["$defs"]?.objectValue ?? [:]
        let definitions = document["definitions"]?.objectValue ?? [:]
        return Set(defs.keys).union(definitions.keys).sorted()
    }

    /// Validates `value` against the definition `name` (looked up under `$defs`, then `definitions`).
    ///
    /// Returns the problems found, each naming the JSON path (e.g. `$.result.tools[0].inputSchema.type`) and what is
    /// wrong; empty means valid.
    package func validate(_ value: JSONValue, definition name: String) -> [String] {
        let schemaPath: String
        let schema: JSONValue
        if let found = document["$defs"]?[name] {
            (schema, schemaPath) = (found, "#/$defs/\(JSONSchema.escapePointerToken(name))")
        } else if let found = document["definitions"]?[name] {
            (schema, schemaPath) = (found, "#/definitions/\(JSONSchema.escapePointerToken(name))")
        } else {
            return ["no definition named \"\(name)\" under $defs or definitions"]
        }
        return Validator(root: document).run(value, schema: schema, schemaPath: schemaPath)
    }

    /// Validates `value` against the document's root schema.
    package func validate(_ value: JSONValue) -> [String] {
        Validator(root: document).run(value, schema: document, schemaPath: "#")
    }

    /// `token` escaped for a JSON pointer (RFC 6901): `~` as `~0`, `/` as `~1`.
    static func escapePointerToken(_ token: String) -> String {
        // Most tokens need nothing: skip Foundation's replacing (this runs for every keyword validated).
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// `pattern` compiled, once per thread: a log check validates thousands of events against the same few
    /// patterns, and compiling one costs far more than matching it. Each thread keeps its own, so no compiled
    /// expression is ever matched from two threads at once.
    static func compiled(_ pattern: String) throws -> NSRegularExpression {
        let key = "weatherd.JSONSchema.pattern." + pattern
        if let cached = Thread.current.threadDictionary[key] as? NSRegularExpression { return cached }
        let expression = try NSRegularExpression(pattern: pattern)
        Thread.current.threadDictionary[key] = expression
        return expression
    }

    /// The JSON path of member `name` of the value at `path`: `.name` for plain names, `["name"]` otherwise.
    static func memberPath(_ path: String, _ name: String) -> String {
        let plain =
            !name.isEmpty
            && name.unicodeScalars.allSatisfy { $0.isASCII && ($0 == "_" || $0 == "$" || isAlphanumeric($0)) }
            && !(name.unicodeScalars.first.map { ("0"..."9").contains($0) } ?? false)
        if plain { return "\(path).\(name)" }
        return "\(path)[\(JSONValue.string(name).jsonString)]"
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
