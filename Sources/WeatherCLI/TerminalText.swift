import WeatherDomain

/// Text from outside weatherd made harmless on a terminal or in a status bar: place and favorite names,
/// upstream texts (warnings, alert messages), event data, error messages that quote what was typed.
///
/// A scalar a terminal would act on instead of showing is written as a visible escape in Swift's notation
/// (`\u{1B}` for ESC, `\u{D}` for a carriage return), so nothing is lost from sight and nothing is done:
/// - the C0 controls U+0000–U+001F, tab and line feed included (every such text is shown on one line, in a
///   column or a bar line, where a tab or a line break would shift or split it), and DEL U+007F;
/// - the C1 controls U+0080–U+009F (U+009B is a one-byte CSI on some terminals);
/// - the line and paragraph separators U+2028 and U+2029;
/// - the bidirectional embeddings, overrides and isolates U+202A–U+202E and U+2066–U+2069, which reorder
///   whatever follows them on the line.
///
/// The directional marks U+200E, U+200F and U+061C are kept: they belong in right-to-left names and reorder
/// nothing beyond their neighbours. A backslash is kept as it is. weatherd's own styling (colour on a terminal,
/// a status bar's markup) is added after this, so it is never escaped.
package enum TerminalText {
    /// `text` with every unsafe scalar written as a visible escape; `text` itself when it has none.
    package static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Whether a terminal or a bar would act on `scalar` instead of showing it (the scalars listed above).
    package static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}

extension JSONValue {
    /// The value with every string in it (at any depth; not the members' names, which are weatherd's own)
    /// made terminal-safe (`TerminalText.safe`).
    package var terminalSafe: JSONValue { mappingStrings(TerminalText.safe) }

    /// The value with `transform` applied to every string in it, at any depth (not to the members' names).
    func mappingStrings(_ transform: (String) -> String) -> JSONValue {
        switch self {
        case .string(let text): .string(transform(text))
        case .array(let values): .array(values.map { $0.mappingStrings(transform) })
        case .object(let members): .object(members.mapValues { $0.mappingStrings(transform) })
        case .null, .bool, .int, .double: self
        }
    }
}
