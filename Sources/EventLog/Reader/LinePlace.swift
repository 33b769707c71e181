/// Where a line was read: its file (path and first seq), its byte offset and its 1-based line number there.
package struct LinePlace: Sendable, Equatable {
    package var path: String
    package var file: Int64
    package var offset: Int64
    package var line: Int64
}
