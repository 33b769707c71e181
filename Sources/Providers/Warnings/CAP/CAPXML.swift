import Foundation
import WeatherDomain

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The element tree of an XML document, read with FoundationXML's parser under bounds, for CAP documents from
/// sources weatherd does not control.
///
/// **Refused before parsing**: a body larger than `maxBytes`; one in an encoding not compatible with ASCII
/// (UTF-16, UTF-32: the checks below read bytes); and any markup declaration (`<!DOCTYPE`, `<!ENTITY`, and
/// `<!` followed by a letter in any case), so a document that declares a DTD, an internal entity (the
/// "billion laughs") or an external one (a file or URL to read) is rejected with a clear error and never
/// given to the parser. The parser is also told not to resolve external entities, and any declaration it
/// reports all the same ends the parse. **Bounded while parsing**: elements nest at most `maxDepth` deep and
/// a document holds at most `maxElements` elements.
enum CAPXML {
    /// The largest document read: 4 MiB (a national service's CAP document is a few kilobytes to a few
    /// hundred with detailed polygons).
    static let maxBytes = 4 << 20
    /// How deep elements may nest (CAP's deepest is `alert/info/area/geocode/value`, 5).
    static let maxDepth = 32
    /// The most elements one document may hold.
    static let maxElements = 200_000

    /// An element: its local name (namespaces processed), its text and child elements.
    struct Element {
        var name: String
        var namespace: String?
        var text: String
        var children: [Element]

        /// The text of the first child named `name`, trimmed; nil when there is none or it is empty.
        func child(_ name: String) -> String? {
            children.first { $0.name == name }.map(\.text.trimmingWhitespace).flatMap { $0.isEmpty ? nil : $0 }
        }

        /// The children named `name`.
        func all(_ name: String) -> [Element] { children.filter { $0.name == name } }
    }

    /// Why a body is not a document weatherd reads.
    struct Refusal: Error {
        var reason: String
    }

    /// The root element of `body`.
    static func parse(_ body: [UInt8]) throws(Refusal) -> Element {
        try screen(body)
        let builder = TreeBuilder()
        let parser = XMLParser(data: Data(body))
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let parsed = parser.parse()
        if let refusal = builder.refusal { throw refusal }
        guard parsed, let root = builder.root else {
            let detail = parser.parserError.map { " (\(($0 as NSError).code))" } ?? ""
            throw Refusal(reason: "not well-formed XML at line \(parser.lineNumber)\(detail)")
        }
        return root
    }

    /// The checks made on the bytes before any parsing.
    static func screen(_ body: [UInt8]) throws(Refusal) {
        guard body.count <= maxBytes else {
            throw Refusal(reason: "the document is \(body.count) bytes, more than the \(maxBytes) weatherd reads")
        }
        guard let first = body.first(where: { $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }) else {
            throw Refusal(reason: "the document is empty")
        }
        if first == 0 || first == 0xFE || first == 0xFF || body.prefix(4).contains(0) {
            throw Refusal(reason: "the document is not in UTF-8 (UTF-16 and UTF-32 are not read)")
        }
        if let encoding = declaredEncoding(body) {
            let name = encoding.lowercased()
            guard
                name.hasPrefix("utf-8") || name == "utf8" || name == "us-ascii" || name == "ascii"
                    || name.hasPrefix("iso-8859-")
            else {
                throw Refusal(reason: "the document declares the encoding \(encoding), which weatherd does not read")
            }
        }
        var index = 0
        while index + 2 < body.count {
            if body[index] == UInt8(ascii: "<"), body[index + 1] == UInt8(ascii: "!") {
                let next = body[index + 2]
                if (next >= 0x41 && next <= 0x5A) || (next >= 0x61 && next <= 0x7A) {
                    let word = String(decoding: body[(index + 2)..<min(body.count, index + 10)], as: UTF8.self)
                    throw Refusal(
                        reason: "the document declares a DTD or entities (<!\(word.prefix { $0.isLetter })); "
                            + "weatherd reads no document that does")
                }
            }
            index += 1
        }
    }

    /// The `encoding` of the XML declaration, when there is one.
    private static func declaredEncoding(_ body: [UInt8]) -> String? {
        let head = String(decoding: body.prefix(200), as: UTF8.self)
        guard head.hasPrefix("<?xml") || head.hasPrefix("\u{FEFF}<?xml"), let end = head.range(of: "?>"),
            let start = head.range(of: "encoding", range: head.startIndex..<end.lowerBound)
        else { return nil }
        let rest = head[start.upperBound..<end.lowerBound].drop { $0 == " " || $0 == "=" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    /// Builds the tree as the parser reports it, and stops it at the first bound passed or declaration seen.
    private final class TreeBuilder: NSObject, XMLParserDelegate {
        var root: Element?
        var refusal: Refusal?
        private var stack: [Element] = []
        private var count = 0

        private func refuse(_ parser: XMLParser, _ reason: String) {
            if refusal == nil { refusal = Refusal(reason: reason) }
            parser.abortParsing()
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            count += 1
            guard count <= CAPXML.maxElements else {
                return refuse(parser, "the document holds more than \(CAPXML.maxElements) elements")
            }
            guard stack.count < CAPXML.maxDepth else {
                return refuse(parser, "elements nest more than \(CAPXML.maxDepth) deep")
            }
            stack.append(Element(name: elementName, namespace: namespaceURI, text: "", children: []))
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            guard let element = stack.popLast() else { return }
            if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += string
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += String(decoding: block, as: UTF8.self)
        }

        func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
            refuse(parser, "the document declares the entity \(name)")
        }

        func parser(
            _ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?,
            systemID: String?
        ) {
            refuse(parser, "the document declares the external entity \(name)")
        }

        func parser(_ parser: XMLParser, foundElementDeclarationWithName elementName: String, model: String) {
            refuse(parser, "the document declares a DTD")
        }

        func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
            refuse(parser, "the document refers to the external entity \(name)")
            return nil
        }
    }
}
