import WeatherDomain

/// What a tool answers before it becomes a `CallToolResult`: one line for people and the JSON result.
struct MCPAnswer: Sendable {
    /// The one-line summary, the result's first text block.
    var summary: String
    /// The structured result, the last text block.
    var value: JSONValue
    /// For a page of a paged list, where it begins, so that a page cut to fit continues after its last item.
    var page: Page?
    /// Whether the answer tells of a failure (`isError`), though it is whole: a nowcast no source gave.
    var isError = false

    /// A page of a paged list: the member holding its items and the offset of the first.
    struct Page: Sendable {
        var member: String
        var offset: Int
    }

    init(_ summary: String, _ value: JSONValue, page: Page? = nil, isError: Bool = false) {
        self.summary = summary
        self.value = value
        self.page = page
        self.isError = isError
    }
}

/// A started tool call: the rest of its work, which produces its answer.
typealias MCPToolRun = @Sendable () async throws -> MCPAnswer
