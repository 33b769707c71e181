/// Header fields in the order they came, looked up without regard to the case of their names.
package struct HTTPHeaders: Sendable, Equatable, Sequence {
    package private(set) var fields: [(name: String, value: String)] = []

    package init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of `name`, or nil.
    package subscript(_ name: String) -> String? {
        fields.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every value of `name`, in order.
    package func values(_ name: String) -> [String] {
        fields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    /// The comma-separated elements of every `name` field, trimmed and lowercased (`Connection`,
    /// `Transfer-Encoding`).
    package func tokens(_ name: String) -> [String] {
        values(name).flatMap { $0.split(separator: ",") }.map { $0.trimmingHTTPSpace.lowercased() }
            .filter { !$0.isEmpty }
    }

    package mutating func add(_ name: String, _ value: String) { fields.append((name: name, value: value)) }

    package func makeIterator() -> some IteratorProtocol<(name: String, value: String)> { fields.makeIterator() }

    package static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}

extension StringProtocol {
    /// Without the spaces and tabs HTTP allows around values.
    package var trimmingHTTPSpace: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
