import Foundation
import WeatherDomain

extension JSONSchema.Validator {
    /// The problems one keyword finds in the value at `path`; `schemaPath` is the keyword's own location.
    func apply(
        _ keyword: String, _ argument: JSONValue, siblings: [String: JSONValue], to value: JSONValue, path: String,
        at schemaPath: String
    ) -> [String] {
        switch keyword {
        case "type": return checkType(argument, value, path, schemaPath)
        case "enum", "const": return checkEquality(keyword, argument, value, path, schemaPath)
        case "$ref": return checkReference(argument, value, path, schemaPath)
        case "allOf", "anyOf", "oneOf": return checkCombination(keyword, argument, value, path, schemaPath)
        case "not":
            guard check(value, argument, path: path, schemaPath: schemaPath).isEmpty else { return [] }
            return ["\(path): must not match the schema at \(schemaPath)"]
        case "properties", "patternProperties", "additionalProperties", "required":
            guard case .object(let members) = value else { return [] }
            return checkObject(keyword, argument, siblings, members, path, schemaPath)
        case "if":
            // `then` and `else` apply only through their `if`; a problem inside `if` itself is only a branch choice.
            let branch = check(value, argument, path: path, schemaPath: schemaPath).isEmpty ? "then" : "else"
            guard let chosen = siblings[branch] else { return [] }
            let parent = String(schemaPath.dropLast("/if".count))
            return check(value, chosen, path: path, schemaPath: "\(parent)/\(branch)")
        case "then", "else":
            return []
        case "dependentSchemas":
            guard case .object(let schemas) = argument else { return malformed(schemaPath, "an object of schemas") }
            guard case .object(let members) = value else { return [] }
            return schemas.keys.sorted().filter { members[$0] != nil }.flatMap { name in
                check(
                    value, schemas[name] ?? .bool(true), path: path,
                    schemaPath: "\(schemaPath)/\(JSONSchema.escapePointerToken(name))")
            }
        case "uniqueItems":
            guard case .bool(let unique) = argument else { return malformed(schemaPath, "a boolean") }
            guard unique, case .array(let elements) = value else { return [] }
            return Set(elements).count == elements.count ? [] : ["\(path): has duplicate items (at \(schemaPath))"]
        case "items", "prefixItems", "minItems", "maxItems":
            guard case .array(let elements) = value else { return [] }
            return checkArray(keyword, argument, siblings, elements, path, schemaPath)
        case "minLength", "maxLength", "pattern", "format":
            guard case .string(let string) = value else { return [] }
            return checkString(keyword, argument, string, path, schemaPath)
        case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
            guard value.doubleValue != nil else { return [] }
            return checkNumber(keyword, argument, value, path, schemaPath)
        default:
            if Self.annotations.contains(keyword) { return [] }
            reportSchemaProblem("unsupported keyword \"\(keyword)\" at schema path \(schemaPath)")
            return []
        }
    }

    /// Records that the keyword at `schemaPath` is not of the form the specification gives it.
    func malformed(_ schemaPath: String, _ expected: String) -> [String] {
        reportSchemaProblem("malformed keyword at schema path \(schemaPath): expected \(expected)")
        return []
    }

    private func checkType(_ argument: JSONValue, _ value: JSONValue, _ path: String, _ schemaPath: String) -> [String]
    {
        let names: [String]
        switch argument {
        case .string(let name): names = [name]
        case .array(let elements) where elements.allSatisfy({ $0.stringValue != nil }):
            names = elements.compactMap(\.stringValue)
        default: return malformed(schemaPath, "a type name or an array of them")
        }
        let known: Set = ["null", "boolean", "integer", "number", "string", "array", "object"]
        if let unknown = names.first(where: { !known.contains($0) }) {
            return malformed(schemaPath, "a known type name, not \"\(unknown)\"")
        }
        if names.contains(where: { Self.value(value, hasType: $0) }) { return [] }
        let expected = names.count == 1 ? names[0] : "one of \(names.joined(separator: ", "))"
        return ["\(path): expected \(expected), found \(value.schemaTypeName) (at \(schemaPath))"]
    }

    private static func value(_ value: JSONValue, hasType name: String) -> Bool {
        switch (name, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object):
            return true
        case ("number", .int), ("number", .double), ("integer", .int):
            return true
        case ("integer", .double(let number)):
            return number.rounded() == number
        default:
            return false
        }
    }

    private func checkEquality(
        _ keyword: String, _ argument: JSONValue, _ value: JSONValue, _ path: String, _ schemaPath: String
    ) -> [String] {
        if keyword == "const" {
            return value == argument ? [] : ["\(path): expected \(argument), found \(value) (at \(schemaPath))"]
        }
        guard case .array(let allowed) = argument else { return malformed(schemaPath, "an array") }
        return allowed.contains(value) ? [] : ["\(path): \(value) is not one of \(argument) (at \(schemaPath))"]
    }

    private func checkReference(_ argument: JSONValue, _ value: JSONValue, _ path: String, _ schemaPath: String)
        -> [String]
    {
        guard case .string(let reference) = argument else { return malformed(schemaPath, "a string") }
        guard let target = resolve(reference) else {
            reportSchemaProblem("unsupported or unresolvable $ref \"\(reference)\" at schema path \(schemaPath)")
            return ["\(path): not validated, $ref \"\(reference)\" cannot be resolved"]
        }
        return check(value, target, path: path, schemaPath: reference)
    }

    private func checkCombination(
        _ keyword: String, _ argument: JSONValue, _ value: JSONValue, _ path: String, _ schemaPath: String
    ) -> [String] {
        guard case .array(let alternatives) = argument, !alternatives.isEmpty else {
            return malformed(schemaPath, "a non-empty array of schemas")
        }
        let results = alternatives.enumerated().map { index, alternative in
            check(value, alternative, path: path, schemaPath: "\(schemaPath)/\(index)")
        }
        if keyword == "allOf" { return results.flatMap { $0 } }
        let matching = results.indices.filter { results[$0].isEmpty }
        if keyword == "oneOf" && matching.count > 1 {
            let indices = matching.map(String.init).joined(separator: ", ")
            return ["\(path): matches \(matching.count) alternatives (\(indices)) of \(schemaPath), not exactly one"]
        }
        guard matching.isEmpty else { return [] }
        let closest = results.indices.min { results[$0].count < results[$1].count } ?? 0
        return [
            "\(path): matches none of the \(alternatives.count) alternatives of \(schemaPath); "
                + "the closest, \(schemaPath)/\(closest), fails with: \(results[closest].joined(separator: "; "))"
        ]
    }

    private func checkObject(
        _ keyword: String, _ argument: JSONValue, _ siblings: [String: JSONValue], _ members: [String: JSONValue],
        _ path: String, _ schemaPath: String
    ) -> [String] {
        switch keyword {
        case "required":
            guard let names = argument.arrayValue?.compactMap(\.stringValue), names.count == argument.arrayValue?.count
            else { return malformed(schemaPath, "an array of strings") }
            return names.filter { members[$0] == nil }.map {
                "\(JSONSchema.memberPath(path, $0)): required member is missing (at \(schemaPath))"
            }
        case "properties":
            guard case .object(let properties) = argument else { return malformed(schemaPath, "an object") }
            return members.keys.sorted().flatMap { name -> [String] in
                guard let member = members[name], let schema = properties[name] else { return [] }
                let location = "\(schemaPath)/\(JSONSchema.escapePointerToken(name))"
                return check(member, schema, path: JSONSchema.memberPath(path, name), schemaPath: location)
            }
        case "patternProperties":
            guard case .object(let patterns) = argument else { return malformed(schemaPath, "an object") }
            return patterns.keys.sorted().flatMap { pattern -> [String] in
                guard let schema = patterns[pattern], let expression = regex(pattern, schemaPath) else { return [] }
                let location = "\(schemaPath)/\(JSONSchema.escapePointerToken(pattern))"
                return members.keys.sorted().filter { Self.matches(expression, $0) }.flatMap { name in
                    check(members[name] ?? .null, schema, path: JSONSchema.memberPath(path, name), schemaPath: location)
                }
            }
        default:
            let declared = siblings["properties"]?.objectValue ?? [:]
            let patterns = (siblings["patternProperties"]?.objectValue ?? [:]).keys.compactMap { regex($0, schemaPath) }
            let extra = members.keys.sorted().filter { name in
                declared[name] == nil && !patterns.contains { Self.matches($0, name) }
            }
            if argument == .bool(false) {
                return extra.map { "\(JSONSchema.memberPath(path, $0)): member is not allowed (at \(schemaPath))" }
            }
            return extra.flatMap { name in
                check(members[name] ?? .null, argument, path: JSONSchema.memberPath(path, name), schemaPath: schemaPath)
            }
        }
    }

    private func checkArray(
        _ keyword: String, _ argument: JSONValue, _ siblings: [String: JSONValue], _ elements: [JSONValue],
        _ path: String, _ schemaPath: String
    ) -> [String] {
        switch keyword {
        case "minItems", "maxItems":
            guard let bound = argument.intValue, bound >= 0 else { return malformed(schemaPath, "a count") }
            if keyword == "minItems" && elements.count < bound {
                return ["\(path): has \(elements.count) items, fewer than \(bound) (at \(schemaPath))"]
            }
            if keyword == "maxItems" && elements.count > bound {
                return ["\(path): has \(elements.count) items, more than \(bound) (at \(schemaPath))"]
            }
            return []
        case "prefixItems":
            guard case .array(let schemas) = argument else { return malformed(schemaPath, "an array of schemas") }
            return zip(elements.indices, schemas).flatMap { index, schema in
                check(elements[index], schema, path: "\(path)[\(index)]", schemaPath: "\(schemaPath)/\(index)")
            }
        default:
            if case .array = argument {
                return malformed(schemaPath, "a schema (the draft-07 tuple form of items is not supported)")
            }
            let skipped = siblings["prefixItems"]?.arrayValue?.count ?? 0
            return elements.indices.dropFirst(skipped).flatMap { index in
                check(elements[index], argument, path: "\(path)[\(index)]", schemaPath: schemaPath)
            }
        }
    }

    private func checkString(
        _ keyword: String, _ argument: JSONValue, _ string: String, _ path: String, _ schemaPath: String
    ) -> [String] {
        switch keyword {
        case "minLength", "maxLength":
            guard let bound = argument.intValue, bound >= 0 else { return malformed(schemaPath, "a length") }
            let length = string.unicodeScalars.count
            if keyword == "minLength" && length < bound {
                return ["\(path): is \(length) characters long, shorter than \(bound) (at \(schemaPath))"]
            }
            if keyword == "maxLength" && length > bound {
                return ["\(path): is \(length) characters long, longer than \(bound) (at \(schemaPath))"]
            }
            return []
        case "pattern":
            guard case .string(let pattern) = argument else { return malformed(schemaPath, "a string") }
            guard let expression = regex(pattern, schemaPath) else { return [] }
            if Self.matches(expression, string) { return [] }
            return ["\(path): \(JSONValue.string(string)) does not match the pattern \(pattern) (at \(schemaPath))"]
        default:
            guard case .string(let format) = argument else { return malformed(schemaPath, "a string") }
            guard let reason = JSONSchema.formatProblem(format, string) else { return [] }
            return ["\(path): \(JSONValue.string(string)) is not a valid \(format): \(reason) (at \(schemaPath))"]
        }
    }

    private func checkNumber(
        _ keyword: String, _ argument: JSONValue, _ value: JSONValue, _ path: String, _ schemaPath: String
    ) -> [String] {
        guard let bound = argument.doubleValue, let number = value.doubleValue else {
            return malformed(schemaPath, "a number")
        }
        let holds: Bool
        let relation: String
        switch keyword {
        case "minimum": (holds, relation) = (number >= bound, "at least")
        case "maximum": (holds, relation) = (number <= bound, "at most")
        case "exclusiveMinimum": (holds, relation) = (number > bound, "greater than")
        default: (holds, relation) = (number < bound, "less than")
        }
        return holds ? [] : ["\(path): \(value) must be \(relation) \(argument) (at \(schemaPath))"]
    }

    private func regex(_ pattern: String, _ schemaPath: String) -> NSRegularExpression? {
        do {
            return try JSONSchema.compiled(pattern)
        } catch {
            reportSchemaProblem("pattern \(pattern) at schema path \(schemaPath) is not a regular expression: \(error)")
            return nil
        }
    }

    private static func matches(_ expression: NSRegularExpression, _ string: String) -> Bool {
        expression.firstMatch(in: string, range: NSRange(string.startIndex..., in: string)) != nil
    }
}
