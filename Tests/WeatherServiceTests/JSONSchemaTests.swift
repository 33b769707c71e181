import Testing
import WeatherDomain
import WeatherTesting

@Suite("JSON Schema validator")
struct JSONSchemaTests {
    /// One keyword's rule: a value it accepts, one it rejects, and the JSON path the one problem must name.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let schema: JSONValue
        let valid: JSONValue
        let invalid: JSONValue
        let path: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "type string", schema: ["type": "string"], valid: "a", invalid: 1, path: "$.x"),
        Case(name: "type list", schema: ["type": ["string", "null"]], valid: nil, invalid: true, path: "$.x"),
        Case(
            name: "integer takes an integral double", schema: ["type": "integer"], valid: 2.0, invalid: 2.5, path: "$.x"
        ),
        Case(name: "number takes an integer", schema: ["type": "number"], valid: 3, invalid: "3", path: "$.x"),
        Case(name: "object", schema: ["type": "object"], valid: [:], invalid: [], path: "$.x"),
        Case(
            name: "properties", schema: ["properties": ["y": ["type": "boolean"]]], valid: ["y": true],
            invalid: ["y": 1], path: "$.x.y"),
        Case(name: "required", schema: ["required": ["y"]], valid: ["y": 1], invalid: ["z": 1], path: "$.x.y"),
        Case(
            name: "required with an odd name", schema: ["required": ["a b"]], valid: ["a b": 1], invalid: [:],
            path: #"$.x["a b"]"#),
        Case(
            name: "additionalProperties false", schema: ["properties": ["a": [:]], "additionalProperties": false],
            valid: ["a": 1], invalid: ["a": 1, "b": 2], path: "$.x.b"),
        Case(
            name: "additionalProperties schema", schema: ["additionalProperties": ["type": "string"]],
            valid: ["k": "v"], invalid: ["k": 1], path: "$.x.k"),
        Case(
            name: "patternProperties", schema: ["patternProperties": ["^n_": ["type": "integer"]]],
            valid: ["n_a": 1, "other": "x"], invalid: ["n_a": "x"], path: "$.x.n_a"),
        Case(
            name: "patternProperties exempt from additionalProperties",
            schema: ["patternProperties": ["^n_": [:]], "additionalProperties": false], valid: ["n_a": 1],
            invalid: ["m": 1], path: "$.x.m"),
        Case(name: "items", schema: ["items": ["type": "integer"]], valid: [1, 2], invalid: [1, "2"], path: "$.x[1]"),
        Case(
            name: "prefixItems", schema: ["prefixItems": [["type": "string"]], "items": ["type": "integer"]],
            valid: ["a", 1], invalid: ["a", "b"], path: "$.x[1]"),
        Case(name: "enum", schema: ["enum": ["a", "b"]], valid: "b", invalid: "c", path: "$.x"),
        Case(name: "uniqueItems", schema: ["uniqueItems": true], valid: [1, 2], invalid: [1, 1.0], path: "$.x"),
        Case(
            name: "if/then applies then where if holds",
            schema: ["if": ["required": ["a"]], "then": ["required": ["b"]], "else": ["required": ["c"]]],
            valid: ["a": 1, "b": 2], invalid: ["a": 1, "c": 2], path: "$.x.b"),
        Case(
            name: "if/else applies else where if fails",
            schema: ["if": ["required": ["a"]], "then": ["required": ["b"]], "else": ["required": ["c"]]],
            valid: ["c": 1], invalid: ["b": 1], path: "$.x.c"),
        Case(
            name: "dependentSchemas applies where the member is present",
            schema: ["dependentSchemas": ["a": ["required": ["b"]]]], valid: ["a": 1, "b": 1], invalid: ["a": 1],
            path: "$.x.b"),
        Case(name: "const compares 2 and 2.0 equal", schema: ["const": 2], valid: 2.0, invalid: 3, path: "$.x"),
        Case(name: "const object", schema: ["const": ["a": [1]]], valid: ["a": [1]], invalid: ["a": [2]], path: "$.x"),
        Case(name: "minimum", schema: ["minimum": 0], valid: 0, invalid: -1, path: "$.x"),
        Case(name: "maximum", schema: ["maximum": 1], valid: 1, invalid: 1.5, path: "$.x"),
        Case(name: "exclusiveMinimum", schema: ["exclusiveMinimum": 0], valid: 0.1, invalid: 0, path: "$.x"),
        Case(name: "exclusiveMaximum", schema: ["exclusiveMaximum": 1], valid: 0.9, invalid: 1, path: "$.x"),
        Case(name: "minLength", schema: ["minLength": 2], valid: "ab", invalid: "a", path: "$.x"),
        Case(name: "maxLength counts characters", schema: ["maxLength": 2], valid: "é!", invalid: "abc", path: "$.x"),
        Case(name: "minItems", schema: ["minItems": 1], valid: [1], invalid: [], path: "$.x"),
        Case(name: "maxItems", schema: ["maxItems": 1], valid: [], invalid: [1, 2], path: "$.x"),
        Case(name: "pattern", schema: ["pattern": "^[a-z]+$"], valid: "abc", invalid: "ab1", path: "$.x"),
        Case(
            name: "format uri", schema: ["format": "uri"], valid: "weather://forecast/Berlin?days=3",
            invalid: "not a uri", path: "$.x"),
        Case(
            name: "format uri-template", schema: ["format": "uri-template"], valid: "weather://forecast/{name}",
            invalid: "weather://forecast/{name", path: "$.x"),
        Case(name: "format byte", schema: ["format": "byte"], valid: "aGVsbG8=", invalid: "a*b", path: "$.x"),
        Case(
            name: "format date-time", schema: ["format": "date-time"], valid: "2025-01-12T15:00:58.5+01:00",
            invalid: "2025-13-01T00:00:00Z", path: "$.x"),
        Case(
            name: "anyOf", schema: ["anyOf": [["type": "string"], ["type": "integer"]]], valid: 1, invalid: true,
            path: "$.x"),
        Case(
            name: "allOf", schema: ["allOf": [["type": "integer"], ["minimum": 0]]], valid: 1, invalid: -1,
            path: "$.x"),
        Case(name: "not", schema: ["not": ["type": "null"]], valid: 1, invalid: nil, path: "$.x"),
        Case(name: "false schema", schema: false, valid: 1, invalid: 1, path: "$.x"),
    ]

    @Test("each keyword accepts a valid value and rejects an invalid one, naming its JSON path", arguments: cases)
    func keyword(_ rule: Case) throws {
        let schema = JSONSchema(document: ["type": "object", "properties": ["x": rule.schema]])
        if rule.schema != false {
            #expect(schema.validate(["x": rule.valid]) == [])
        }
        let problems = schema.validate(["x": rule.invalid])
        #expect(problems.count == 1, "\(problems)")
        let problem = try #require(problems.first)
        #expect(problem.hasPrefix(rule.path + ":"), "\(problem)")
    }

    @Test("a type problem names the member, what was expected and what was found")
    func typeMessage() {
        let schema = JSONSchema(document: ["properties": ["a": ["items": ["properties": ["b": ["type": "string"]]]]]])
        let problems = schema.validate(["a": [["b": "ok"], ["b": 7]]])
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("$.a[1].b: expected string, found integer") == true, "\(problems)")
    }

    @Test("a format the validator does not know is not checked")
    func unknownFormat() {
        #expect(JSONSchema(document: ["format": "email"]).validate("no at sign") == [])
    }

    @Test("$ref reaches #/definitions, #/$defs, and # for recursion")
    func references() {
        let document: JSONValue = [
            "type": "object",
            "properties": [
                "name": ["$ref": "#/definitions/Name"],
                "size": ["$ref": "#/$defs/Size"],
                "children": ["type": "array", "items": ["$ref": "#"]],
            ],
            "definitions": ["Name": ["type": "string"]],
            "$defs": ["Size": ["type": "integer", "minimum": 0]],
        ]
        let schema = JSONSchema(document: document)
        #expect(schema.definitionNames == ["Name", "Size"])
        #expect(schema.validate(["name": "a", "children": [["name": "b", "children": [["size": 1]]]]]) == [])
        let problems = schema.validate(["children": [["children": [["name": 5, "size": -1]]]]])
        #expect(problems.count == 2)
        #expect(problems.contains { $0.hasPrefix("$.children[0].children[0].name: expected string") }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("$.children[0].children[0].size: ") }, "\(problems)")
    }

    @Test("a definition is looked up under $defs first, then definitions; a missing one is a problem")
    func definitions() {
        let schema = JSONSchema(document: [
            "$defs": ["A": ["type": "string"]], "definitions": ["A": ["type": "integer"], "B": ["type": "null"]],
        ])
        #expect(schema.definitionNames == ["A", "B"])
        #expect(schema.validate("s", definition: "A") == [])
        #expect(schema.validate(nil, definition: "B") == [])
        #expect(schema.validate(1, definition: "B").first?.hasPrefix("$: expected null") == true)
        #expect(schema.validate(1, definition: "C") == [#"no definition named "C" under $defs or definitions"#])
    }

    @Test("oneOf passes with exactly one match and fails with none or two")
    func oneOf() {
        let schema = JSONSchema(document: ["oneOf": [["type": "integer"], ["type": "number", "minimum": 0]]])
        #expect(schema.validate(-1) == [])
        #expect(schema.validate(0.5) == [])
        let none = schema.validate("s")
        #expect(none.count == 1)
        #expect(none.first?.hasPrefix("$: matches none of the 2 alternatives") == true, "\(none)")
        let two = schema.validate(1)
        #expect(two.count == 1)
        #expect(two.first?.hasPrefix("$: matches 2 alternatives (0, 1)") == true, "\(two)")
    }

    @Test("an unsupported keyword is reported, even inside an anyOf alternative that was not needed")
    func unsupportedKeyword() {
        let plain = JSONSchema(document: ["type": "array", "contains": ["type": "string"]]).validate([1, 1])
        #expect(plain == [#"unsupported keyword "contains" at schema path #/contains"#])
        let hidden = JSONSchema(document: ["anyOf": [["type": "string"], ["multipleOf": 2]]]).validate("a")
        #expect(hidden == [#"unsupported keyword "multipleOf" at schema path #/anyOf/1/multipleOf"#])
    }

    @Test("a $ref that cannot be resolved, or is not local, is reported")
    func unresolvableReference() {
        let missing = JSONSchema(document: ["$ref": "#/definitions/Nope"]).validate(1)
        #expect(missing.contains { $0.contains(##"unsupported or unresolvable $ref "#/definitions/Nope""##) })
        let remote = JSONSchema(document: ["$ref": "other.json#/definitions/A"]).validate(1)
        #expect(remote.contains { $0.contains(##"unsupported or unresolvable $ref "other.json#/definitions/A""##) })
    }

    @Test("annotation keywords are ignored")
    func annotations() {
        let schema = JSONSchema(document: [
            "$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "x", "title": "t", "description": "d",
            "default": 1, "examples": [1], "deprecated": true, "readOnly": true, "$comment": "c", "type": "integer",
        ])
        #expect(schema.validate(1) == [])
    }
}
