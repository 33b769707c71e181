/// Why input is not acceptable JSON, and where.
package struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of problem, which the RPC front maps to an error code.
    package enum Kind: String, Sendable {
        case invalidUTF8, tooDeep, syntax, duplicateKey, numberOutOfRange, byteOrderMark
    }

    package var kind: Kind
    /// The byte offset where the problem was found.
    package var offset: Int
    /// A human sentence.
    package var message: String

    package init(kind: Kind, offset: Int, message: String) {
        self.kind = kind
        self.offset = offset
        self.message = message
    }

    package var description: String { message }
}
