import Testing
import WeatherDomain

@Suite("JSON codec")
struct JSONTests {
    static func kind(_ bytes: [UInt8], maxDepth: Int = 64) -> JSONParseError.Kind? {
        do {
            _ = try JSONValue.parse(bytes, maxDepth: maxDepth)
            return nil
        } catch {
            return error.kind
        }
    }

    @Test(
        "valid documents round-trip through the canonical encoding",
        arguments: [
            #"{"a":[1,2.5,-0.125,true,false,null],"b":{"c":"d\"e\\f\n\u0001"},"e":""}"#,
            #"[]"#, #"{}"#, #""é ✓ 😀""#, #"-9223372036854775808"#, #"1e-05"#, #"[[[[]]]]"#,
        ])
    func roundTrip(text: String) throws {
        let value = try JSONValue.parse(text)
        #expect(try JSONValue.parse(value.jsonBytes) == value)
        #expect(try JSONValue.parse(value.jsonString).jsonString == value.jsonString)
    }

    @Test("objects are encoded with keys sorted by UTF-8 bytes, no white space, minimal escapes")
    func canonical() throws {
        let value = try JSONValue.parse(#" { "b" : 1 , "a" : "x/y\u0007\t" , "Z" : [ ] , "é" : null , "aa" : 2.0 } "#)
        #expect(value.jsonString == #"{"Z":[],"a":"x/y\u0007\t","aa":2.0,"b":1,"é":null}"#)
    }

    @Test(
        "integers stay integers; everything else is a double",
        arguments: [
            ("1", JSONValue.int(1)), ("-0", .int(0)), ("1.0", .double(1)), ("1e2", .double(100)),
            ("9223372036854775807", .int(Int64.max)), ("9223372036854775808", .double(9_223_372_036_854_775_808)),
            ("-1.5E-3", .double(-0.0015)),
        ])
    func numbers(text: String, value: JSONValue) throws {
        #expect(try JSONValue.parse(text) == value)
    }

    @Test("U+2028 and U+2029 are encoded as escapes, in keys too, and decode back")
    func lineSeparators() throws {
        let value = JSONValue.object(["k\u{2029}": .string("a\u{2028}b\u{2029}\u{2028}")])
        #expect(value.jsonString == #"{"k\u2029":"a\u2028b\u2029\u2028"}"#)
        #expect(try JSONValue.parse(value.jsonBytes) == value)
        #expect(JSONValue.string("\u{E2}\u{80}\u{2027}").jsonString == "\"\u{E2}\u{80}\u{2027}\"")
    }

    @Test("escapes decode, including surrogate pairs")
    func escapes() throws {
        #expect(try JSONValue.parse(#""\ud83d\ude00\u00e9\/""#) == .string("😀é/"))
    }

    static let quote: [UInt8] = [0x22]

    static func text(_ string: String) -> [UInt8] { Array(string.utf8) }

    static let rejected: [([UInt8], JSONParseError.Kind)] = [
        ([0xEF, 0xBB, 0xBF, 0x7B, 0x7D], .byteOrderMark),
        (quote + [0xC0, 0xAF] + quote, .invalidUTF8),
        (quote + [0xED, 0xA0, 0x80] + quote, .invalidUTF8),
        (quote + [0xF4, 0x90, 0x80, 0x80] + quote, .invalidUTF8),
        (quote + [0xE2, 0x82] + quote, .invalidUTF8),
        (quote + [0x80] + quote, .invalidUTF8),
        ([0x5B, 0xFF, 0x5D], .invalidUTF8),
        (text(#""\ud800""#), .invalidUTF8),
        (text(#""\udc00x""#), .invalidUTF8),
        (quote + [0x61, 0x00] + quote, .syntax),
        ([0x5B, 0x00, 0x5D], .syntax),
        (text("01"), .syntax),
        (text("1."), .syntax),
        (text(".5"), .syntax),
        (text("+1"), .syntax),
        (text("NaN"), .syntax),
        (text("0x10"), .syntax),
        (text("1e400"), .numberOutOfRange),
        (text(#"{"a":1,"a":2}"#), .duplicateKey),
        (text("{} x"), .syntax),
        ([], .syntax),
        (text(#""abc"#), .syntax),
        (text("[1,2"), .syntax),
        (text(#"{"a":1"#), .syntax),
        (text("[1,]"), .syntax),
        (text(#"{"a"}"#), .syntax),
        (text(#""\x""#), .syntax),
    ]

    @Test("strict rejections carry the right kind", arguments: rejected)
    func rejections(bytes: [UInt8], kind: JSONParseError.Kind) {
        #expect(Self.kind(bytes) == kind)
    }

    @Test("nesting is limited: 64 levels pass, 65 do not, and 100,000 do not crash")
    func depth() {
        let nested = { (depth: Int) in
            Array(String(repeating: "[", count: depth).utf8) + Array(String(repeating: "]", count: depth).utf8)
        }
        #expect(Self.kind(nested(64)) == nil)
        #expect(Self.kind(nested(65)) == .tooDeep)
        #expect(Self.kind(Array(String(repeating: "[", count: 100_000).utf8)) == .tooDeep)
        #expect(Self.kind(Array(String(repeating: "{\"a\":", count: 100).utf8)) == .tooDeep)
    }

    @Test("accessors convert only what is exact")
    func accessors() {
        #expect(JSONValue.double(3.0).intValue == 3)
        #expect(JSONValue.double(3.5).intValue == nil)
        #expect(JSONValue.double(1e300).intValue == nil)
        #expect(JSONValue.int(2).doubleValue == 2.0)
        #expect(JSONValue.string("x").intValue == nil)
        #expect((["a": 1] as JSONValue)["a"] == 1)
        #expect((["a": 1] as JSONValue)["b"] == nil)
        #expect(JSONValue.null.isNull)
    }

    @Test("parseMembers keeps the named members, steps over the rest, and refuses a repeated key or trailing bytes")
    func members() throws {
        let text = #"{"a":1,"big":{"x":[1,2,{"y":"}]\"["}],"z":"q"},"b":"two","c":[true,null]}"#
        let kept = try Array(text.utf8).withUnsafeBytes { try JSONValue.parseMembers($0, keeping: ["a", "b"]) }
        #expect(kept == ["a": 1, "b": "two"])
        #expect(throws: JSONParseError.self) {
            try Array(#"{"a":1,"a":2}"#.utf8).withUnsafeBytes { try JSONValue.parseMembers($0, keeping: ["a"]) }
        }
        #expect(throws: JSONParseError.self) {
            try Array(#"{"a":1} x"#.utf8).withUnsafeBytes { try JSONValue.parseMembers($0, keeping: ["a"]) }
        }
        #expect(throws: JSONParseError.self) {
            try Array(#"{"a":1,"b":[1,2"#.utf8).withUnsafeBytes { try JSONValue.parseMembers($0, keeping: ["a"]) }
        }
    }

    @Test(
        "a stepped-over member that does not end, or nests too deep, is refused with its reason",
        arguments: [
            (#"{"a":1,"big":{"s":"never closed}}"#, "unterminated string"),
            (#"{"a":1,"big":{"s":"\"}"#, "unterminated string"),
            (#"{"a":1,"big":[[1,2],{"x":"]"}"#, "unterminated array or object"),
            (#"{"big":"#, "unexpected end of input"),
            (
                "{\"big\":" + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "}",
                "deeper than 64"
            ),
        ])
    func stepOverRefusals(text: String, reason: String) {
        let error = Array(text.utf8).withUnsafeBytes { bytes -> JSONParseError? in
            do throws(JSONParseError) {
                _ = try JSONValue.parseMembers(bytes, keeping: ["a"])
                return nil
            } catch {
                return error
            }
        }
        #expect(error.map { "\($0)".contains(reason) } == true, "\(String(describing: error))")
    }

    @Test("stepping over a large payload of strings with escapes and brackets keeps the members after it")
    func stepOverLarge() throws {
        let entry: JSONValue = [
            "text": #"a "quoted" \ back} slash ] and { brackets ["#, "list": [1, 2.5, ["x": "y]"]], "n": nil,
        ]
        let payload: JSONValue = .object([
            "attempt": 1, "entries": .array(Array(repeating: entry, count: 2000)), "key": "52.52,13.41", "url": "u",
        ])
        let bytes = payload.jsonBytes
        #expect(bytes.count > 100_000)
        let kept = try bytes.withUnsafeBytes { try JSONValue.parseMembers($0, keeping: ["attempt", "key", "url"]) }
        #expect(kept == ["attempt": 1, "key": "52.52,13.41", "url": "u"])
    }
}
