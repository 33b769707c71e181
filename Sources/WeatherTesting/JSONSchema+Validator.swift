import Foundation
import WeatherDomain

extension JSONSchema {
    /// Walks a value and a schema together and collects what is wrong.
    ///
    /// Problems with the schema itself (an unsupported keyword, a malformed keyword, an unresolvable `$ref`) are
    /// collected apart and always reported, even when found inside an `anyOf` alternative that lost or inside a
    /// `not`, so they can never be swallowed by a combinator.
    final class Validator {
        /// The document `$ref`s resolve against.
        let root: JSONValue
        private var schemaProblems: [String] = []
        private var depth = 0

        /// Keywords that carry no assertion (and the containers of definitions, which are reached by `$ref`).
        static let annotations: Set<String> = [
            "description", "title", "$schema", "$id", "default", "examples", "deprecated", "readOnly", "$comment",
            "$defs", "definitions",
        ]

        init(root: JSONValue) {
            self.root = root
        }

        /// The problems of `value` against `schema`, then every problem found in the schema itself.
        func run(_ value: JSONValue, schema: JSONValue, schemaPath: String) -> [String] {
            check(value, schema, path: "$", schemaPath: schemaPath) + schemaProblems
        }

        /// The problems of the value at `path` against the (sub)schema found at `schemaPath`.
        func check(_ value: JSONValue, _ schema: JSONValue, path: String, schemaPath: String) -> [String] {
            switch schema {
            case .bool(true):
                return []
            case .bool(false):
                return ["\(path): no value is allowed here (at \(schemaPath), which is false)"]
            case .object(let keywords):
                depth += 1
                defer { depth -= 1 }
                guard depth <= 200 else {
                    reportSchemaProblem("schema nesting or $ref chain deeper than 200 at \(schemaPath)")
                    return ["\(path): not validated, the schema at \(schemaPath) recurses too deeply"]
                }
                // `type` first: when it fails, the problems of the other keywords follow from it.
                var order = keywords.keys.filter { $0 != "type" }.sorted()
                if keywords["type"] != nil { order.insert("type", at: 0) }
                var problems: [String] = []
                for keyword in order {
                    guard let argument = keywords[keyword] else { continue }
                    problems += apply(
                        keyword, argument, siblings: keywords, to: value, path: path,
                        at: "\(schemaPath)/\(JSONSchema.escapePointerToken(keyword))")
                }
                return problems
            default:
                reportSchemaProblem("the schema at \(schemaPath) is neither an object nor a boolean")
                return ["\(path): not validated, the schema at \(schemaPath) is malformed"]
            }
        }

        /// Records a problem with the schema itself, once.
        func reportSchemaProblem(_ problem: String) {
            if !schemaProblems.contains(problem) { schemaProblems.append(problem) }
        }

        /// The subschema a local `$ref` (`#`, `#/definitions/X`, `#/$defs/X`, any JSON pointer) names.
        func resolve(_ reference: String) -> JSONValue? {
            guard reference.hasPrefix("#") else { return nil }
            let fragment = String(reference.dropFirst())
            let pointer = fragment.removingPercentEncoding ?? fragment
            if pointer.isEmpty { return root }
            guard pointer.hasPrefix("/") else { return nil }
            var current = root
            for token in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
                let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
                switch current {
                case .object(let members):
                    guard let next = members[key] else { return nil }
                    current = next
                case .array(let elements):
                    guard let index = Int(key), elements.indices.contains(index) else { return nil }
                    current = elements[index]
                default:
                    return nil
                }
            }
            return current
        }
    }
}

extension JSONValue {
    /// The JSON Schema type name of this value, for messages.
    var schemaTypeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int: "integer"
        case .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
