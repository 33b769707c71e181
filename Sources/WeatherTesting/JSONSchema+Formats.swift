import Foundation

extension JSONSchema {
    /// Why `string` is not a valid `format`, or nil when it is (or when the format is one this validator does not
    /// check: in both drafts `format` is an annotation unless a validator opts in).
    ///
    /// Checked: `uri` (a scheme, then no white space or characters RFC 3986 never allows), `uri-template` (balanced,
    /// unnested braces), `byte` (base64), `date-time` (RFC 3339, checked loosely: shape and field ranges).
    static func formatProblem(_ format: String, _ string: String) -> String? {
        switch format {
        case "uri": uriProblem(string)
        case "uri-template": uriTemplateProblem(string)
        case "byte": Data(base64Encoded: string) == nil ? "not base64" : nil
        case "date-time": dateTimeProblem(string)
        default: nil
        }
    }

    private static func uriProblem(_ string: String) -> String? {
        let scalars = Array(string.unicodeScalars)
        guard let colon = scalars.firstIndex(of: ":"), colon > 0 else { return "no scheme" }
        let scheme = scalars[..<colon]
        let schemeOK =
            scheme.first.map(isLetter) == true
            && scheme.allSatisfy { isLetter($0) || isDigit($0) || $0 == "+" || $0 == "-" || $0 == "." }
        guard schemeOK else { return "the scheme is not letters, digits, +, - and ." }
        let forbidden: Set<Unicode.Scalar> = [" ", "\"", "<", ">", "\\", "^", "`", "{", "|", "}"]
        if let bad = scalars.first(where: { $0.value < 0x21 || $0.value == 0x7F || forbidden.contains($0) }) {
            return "contains the character U+\(String(bad.value, radix: 16, uppercase: true))"
        }
        return nil
    }

    private static func uriTemplateProblem(_ string: String) -> String? {
        var open = false
        for scalar in string.unicodeScalars {
            switch scalar {
            case "{":
                if open { return "nested {" }
                open = true
            case "}":
                if !open { return "} without {" }
                open = false
            case " ", "\n", "\t", "\r":
                return "contains white space"
            default:
                continue
            }
        }
        return open ? "unclosed {" : nil
    }

    private static func dateTimeProblem(_ string: String) -> String? {
        let expression: NSRegularExpression
        do {
            expression = try compiled(
                #"^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$"#)
        } catch {
            return "the date-time check's own pattern does not compile: \(error)"
        }
        let range = NSRange(string.startIndex..., in: string)
        guard let match = expression.firstMatch(in: string, range: range) else {
            return "not YYYY-MM-DDThh:mm:ss[.f]Z|±hh:mm"
        }
        func field(_ index: Int) -> Int? {
            guard let range = Range(match.range(at: index), in: string) else { return nil }
            return Int(string[range])
        }
        let limits: [(index: Int, range: ClosedRange<Int>, name: String)] = [
            (2, 1...12, "month"), (3, 1...31, "day"), (4, 0...23, "hour"), (5, 0...59, "minute"),
            (6, 0...60, "second"), (9, 0...23, "offset hour"), (10, 0...59, "offset minute"),
        ]
        for limit in limits {
            if let value = field(limit.index), !limit.range.contains(value) {
                return "the \(limit.name) is out of range"
            }
        }
        return nil
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }
}
