/// A small, strict reader of XML for tests of the documents weatherd writes (its SVG charts): it accepts
/// only well-formed XML 1.0 and returns the element tree.
///
/// It checks what matters for a document a browser or another XML reader will take: one root element,
/// tags balanced and properly nested, attribute values quoted, no attribute twice on an element, `<` never
/// bare and `&` only as a reference (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;` or a character
/// reference), only characters XML allows, and nothing but comments and white space around the root. An
/// XML declaration may come first; a document type declaration is refused (no entities to expand).
package enum XMLCheck {
    /// An element: its name, attributes (values decoded), child elements and text.
    package struct Element: Sendable {
        package var name: String
        package var attributes: [String: String]
        package var children: [Element]
        /// The text inside the element and its descendants, references decoded (like the DOM's
        /// `textContent`).
        package var text: String

        /// The element and all elements inside it, in document order.
        package var all: [Element] { [self] + children.flatMap(\.all) }

        /// The elements named `name`, this one included, in document order.
        package func elements(named name: String) -> [Element] { all.filter { $0.name == name } }
    }

    /// Why a text is not well-formed XML, and where (the offset in Unicode scalars).
    package struct Problem: Error, CustomStringConvertible {
        package var offset: Int
        package var message: String

        package var description: String { "not well-formed XML at \(offset): \(message)" }
    }

    /// The root element of `text`, which must be a well-formed XML document.
    package static func parse(_ text: String) throws(Problem) -> Element {
        var reader = Reader(Array(text.unicodeScalars))
        return try reader.document()
    }
}

/// The parser behind `XMLCheck`: a cursor over the document's scalars.
private struct Reader {
    let scalars: [Unicode.Scalar]
    var index = 0

    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    var atEnd: Bool { index >= scalars.count }

    func problem(_ message: String) -> XMLCheck.Problem { XMLCheck.Problem(offset: index, message: message) }

    func starts(with prefix: String) -> Bool {
        var position = index
        for scalar in prefix.unicodeScalars {
            guard position < scalars.count, scalars[position] == scalar else { return false }
            position += 1
        }
        return true
    }

    mutating func expect(_ literal: String) throws(XMLCheck.Problem) {
        guard starts(with: literal) else { throw problem("expected \(literal)") }
        index += literal.unicodeScalars.count
    }

    mutating func skipSpace() {
        while !atEnd, [" ", "\t", "\n", "\r"].contains(scalars[index]) { index += 1 }
    }

    /// The prolog, the root element, then only comments and white space.
    mutating func document() throws(XMLCheck.Problem) -> XMLCheck.Element {
        if starts(with: "<?xml") { try declaration() }
        try misc()
        guard starts(with: "<"), !starts(with: "</") else { throw problem("expected the root element") }
        let root = try element()
        try misc()
        guard atEnd else { throw problem("content after the root element") }
        return root
    }

    /// White space and comments between the prolog, the root and the end.
    mutating func misc() throws(XMLCheck.Problem) {
        while true {
            skipSpace()
            if starts(with: "<!--") {
                try comment()
            } else if starts(with: "<!DOCTYPE") || starts(with: "<?") {
                throw problem("document type declarations and processing instructions are not accepted")
            } else {
                return
            }
        }
    }

    mutating func declaration() throws(XMLCheck.Problem) {
        while !starts(with: "?>") {
            guard !atEnd else { throw problem("unterminated XML declaration") }
            index += 1
        }
        index += 2
    }

    mutating func comment() throws(XMLCheck.Problem) {
        index += 4
        while !starts(with: "--") {
            guard !atEnd else { throw problem("unterminated comment") }
            try checkCharacter(scalars[index])
            index += 1
        }
        try expect("-->")
    }

    func checkCharacter(_ scalar: Unicode.Scalar) throws(XMLCheck.Problem) {
        let value = scalar.value
        let allowed =
            value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
            || (0xE000...0xFFFD).contains(value) || value >= 0x10000
        guard allowed else { throw problem("character U+\(String(value, radix: 16)) is not allowed in XML") }
    }

    static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar == "_" || scalar == ":"
    }

    static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        isNameStart(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "." || scalar.value >= 0x80
    }

    mutating func name() throws(XMLCheck.Problem) -> String {
        guard !atEnd, Self.isNameStart(scalars[index]) else { throw problem("expected a name") }
        var name = String.UnicodeScalarView()
        while !atEnd, Self.isNameCharacter(scalars[index]) {
            name.append(scalars[index])
            index += 1
        }
        return String(name)
    }

    /// An element from its `<` to the end of its end tag (or its `/>`).
    mutating func element() throws(XMLCheck.Problem) -> XMLCheck.Element {
        try expect("<")
        let name = try name()
        var element = XMLCheck.Element(name: name, attributes: [:], children: [], text: "")
        while true {
            let spaced = index
            skipSpace()
            if starts(with: "/>") {
                index += 2
                return element
            }
            if starts(with: ">") {
                index += 1
                break
            }
            guard index > spaced else { throw problem("expected white space, > or /> in <\(name)>") }
            let attribute = try self.name()
            guard element.attributes[attribute] == nil else {
                throw problem("attribute \(attribute) appears twice in <\(name)>")
            }
            skipSpace()
            try expect("=")
            skipSpace()
            element.attributes[attribute] = try quoted()
        }
        try content(of: &element)
        return element
    }

    /// A quoted attribute value, decoded.
    mutating func quoted() throws(XMLCheck.Problem) -> String {
        guard !atEnd, scalars[index] == "\"" || scalars[index] == "'" else {
            throw problem("attribute values must be quoted")
        }
        let quote = scalars[index]
        index += 1
        var value = String.UnicodeScalarView()
        while true {
            guard !atEnd else { throw problem("unterminated attribute value") }
            let scalar = scalars[index]
            if scalar == quote {
                index += 1
                return String(value)
            }
            guard scalar != "<" else { throw problem("< in an attribute value") }
            if scalar == "&" {
                value.append(try reference())
            } else {
                try checkCharacter(scalar)
                value.append(scalar)
                index += 1
            }
        }
    }

    /// The text, comments and child elements of an element, up to and including its end tag.
    mutating func content(of element: inout XMLCheck.Element) throws(XMLCheck.Problem) {
        var text = String.UnicodeScalarView()
        while true {
            guard !atEnd else { throw problem("<\(element.name)> is never closed") }
            if starts(with: "</") {
                index += 2
                let closing = try name()
                guard closing == element.name else {
                    throw problem("</\(closing)> closes <\(element.name)>")
                }
                skipSpace()
                try expect(">")
                element.text = String(text)
                return
            }
            if starts(with: "<!--") {
                try comment()
            } else if starts(with: "<![CDATA[") {
                index += 9
                while !starts(with: "]]>") {
                    guard !atEnd else { throw problem("unterminated CDATA section") }
                    try checkCharacter(scalars[index])
                    text.append(scalars[index])
                    index += 1
                }
                index += 3
            } else if starts(with: "<?") || starts(with: "<!") {
                throw problem("processing instructions and declarations are not accepted in content")
            } else if starts(with: "<") {
                let child = try self.element()
                text.append(contentsOf: child.text.unicodeScalars)
                element.children.append(child)
            } else if starts(with: "]]>") {
                throw problem("]]> in text")
            } else if scalars[index] == "&" {
                text.append(try reference())
            } else {
                try checkCharacter(scalars[index])
                text.append(scalars[index])
                index += 1
            }
        }
    }

    /// A reference from its `&` to its `;`: one of the five predefined entities or a character reference.
    mutating func reference() throws(XMLCheck.Problem) -> Unicode.Scalar {
        let start = index
        index += 1
        var body = ""
        while !atEnd, scalars[index] != ";" {
            guard body.unicodeScalars.count < 12 else { break }
            body.unicodeScalars.append(scalars[index])
            index += 1
        }
        guard !atEnd, scalars[index] == ";" else {
            index = start
            throw problem("bare & (a reference needs its ;)")
        }
        index += 1
        let named: [String: Unicode.Scalar] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
        if let scalar = named[body] { return scalar }
        var number: UInt32?
        if body.hasPrefix("#x") {
            number = UInt32(body.dropFirst(2), radix: 16)
        } else if body.hasPrefix("#") {
            number = UInt32(body.dropFirst(1), radix: 10)
        }
        guard let number, let scalar = Unicode.Scalar(number) else {
            index = start
            throw problem("unknown reference &\(body);")
        }
        try checkCharacter(scalar)
        return scalar
    }
}
