import Foundation

extension Chart {
    /// Writes the document an element a line, indented by nesting, with escaped text and attributes.
    struct Writer {
        private var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
        private var depth = 0

        /// The document, ending with a newline.
        var document: String { lines.joined(separator: "\n") + "\n" }

        /// Opens an element whose children follow on their own lines.
        mutating func open(_ name: String, _ attributes: [(String, String)]) {
            append("<\(name)\(Self.attributes(attributes))>")
            depth += 1
        }

        /// Closes the element `open` opened last.
        mutating func close(_ name: String) {
            depth -= 1
            append("</\(name)>")
        }

        /// An element on one line, with its text (escaped) or empty.
        mutating func element(_ name: String, _ attributes: [(String, String)], text: String? = nil) {
            append(Self.tag(name, attributes, text: text))
        }

        /// An element on one line around pieces of markup (made with `tag`, or text without `&` and `<`),
        /// joined without white space, which would show in a text.
        mutating func element(_ name: String, _ attributes: [(String, String)], markup: [String]) {
            append("<\(name)\(Self.attributes(attributes))>" + markup.joined() + "</\(name)>")
        }

        private mutating func append(_ line: String) {
            lines.append(String(repeating: "  ", count: max(depth, 0)) + line)
        }

        /// An element as markup: with its text (escaped), or empty (`<line … />`).
        static func tag(_ name: String, _ attributes: [(String, String)], text: String?) -> String {
            guard let text else { return "<\(name)\(Self.attributes(attributes))/>" }
            return "<\(name)\(Self.attributes(attributes))>\(escape(text))</\(name)>"
        }

        /// Attributes as markup, each after a space, values escaped.
        static func attributes(_ attributes: [(String, String)]) -> String {
            attributes.map { " \($0.0)=\"\(escape($0.1))\"" }.joined()
        }

        /// Text for XML: `&`, `<`, `>`, `"` and `'` escaped, characters XML 1.0 does not allow left out.
        static func escape(_ text: String) -> String {
            var escaped = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "&": escaped += "&amp;"
                case "<": escaped += "&lt;"
                case ">": escaped += "&gt;"
                case "\"": escaped += "&quot;"
                case "'": escaped += "&apos;"
                case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
                default:
                    let value = scalar.value
                    if value >= 0x20 && value != 0xFFFE && value != 0xFFFF { escaped.unicodeScalars.append(scalar) }
                }
            }
            return escaped
        }

        /// A coordinate with one decimal (`-12.5`, `0.0`); a value that is not finite is written as 0.
        static func number(_ value: Double) -> String { fixed(value, decimals: 1) }

        /// A number with exactly `decimals` decimals, never `-0`, clamped to ±10⁹.
        static func fixed(_ value: Double, decimals: Int) -> String {
            let scale = pow(10, Double(decimals))
            let clamped = value.isFinite ? min(max(value, -1e9), 1e9) : 0
            let scaled = Int64((clamped * scale).rounded())
            let magnitude = scaled.magnitude
            let unit = UInt64(scale)
            let sign = scaled < 0 ? "-" : ""
            guard decimals > 0 else { return sign + "\(magnitude)" }
            let fraction = String(magnitude % unit)
            return sign + "\(magnitude / unit)." + String(repeating: "0", count: decimals - fraction.count) + fraction
        }
    }
}
