/// Where a line was read: its file (path and first seq), its byte offset and its 1-based line number there.
public struct LinePlace: Sendable, Equatable {
    public var path: String
    public var file: Int64
    public var offset: Int64
    public var line: Int64
}
