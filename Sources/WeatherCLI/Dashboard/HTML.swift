/// HTML text built by appending: every text and attribute value is escaped where it goes in, so a place named
/// `<script>` is shown, never run.
struct HTML {
    private(set) var text = ""

    /// `<name attributes>`.
    mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
        text += "<" + name
        for (key, value) in attributes { text += " \(key)=\"\(Self.escape(value))\"" }
        text += ">"
    }

    mutating func close(_ name: String) { text += "</\(name)>" }

    /// `<name attributes>text</name>`.
    mutating func element(_ name: String, _ attributes: [(String, String)] = [], text content: String) {
        open(name, attributes)
        text(content)
        close(name)
    }

    /// Text, escaped.
    mutating func text(_ content: String) { text += Self.escape(content) }

    /// Markup made elsewhere and trusted (an SVG document weatherd rendered).
    mutating func markup(_ content: String) { text += content }

    /// `&`, `<`, `>`, `"` and `'` as character references.
    static func escape(_ content: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(content.utf8.count)
        for character in content {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
