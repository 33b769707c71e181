/// Why input is not acceptable JSON, and where.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of problem, which the RPC front maps to an error code.
    public enum Kind: String, Sendable {
        case invalidUTF8, tooDeep, syntax, duplicateKey, numberOutOfRange, byteOrderMark
    }

    public var kind: Kind
    /// The byte offset where the problem was found.
    public var offset: Int
    /// A human sentence.
    public var message: String

    public init(kind: Kind, offset: Int, message: String) {
        self.kind = kind
        self.offset = offset
        self.message = message
    }

    public var description: String { message }
}
