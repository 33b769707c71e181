/// A revision of the Model Context Protocol that weatherd speaks, and what each one can carry.
///
/// The handshake era (`initialize`) covers 2024-11-05 to 2025-11-25; 2026-07-28 is stateless (every
/// request carries its version in `params._meta`). Shapes a revision's schema does not define are left
/// out of what is sent in it.
package enum MCPVersion: String, CaseIterable, Comparable, Sendable {
    case v20241105 = "2024-11-05"
    case v20250326 = "2025-03-26"
    case v20250618 = "2025-06-18"
    case v20251125 = "2025-11-25"
    case v20260728 = "2026-07-28"

    /// The versions `initialize` accepts.
    static let handshake: [MCPVersion] = [.v20241105, .v20250326, .v20250618, .v20251125]
    /// What `initialize` answers when the client asks for a version weatherd does not know.
    static let latestHandshake = MCPVersion.v20251125
    /// Every version, newest first, as `server/discover` lists them.
    static let newestFirst: [MCPVersion] = allCases.reversed()

    package static func < (lhs: MCPVersion, rhs: MCPVersion) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether requests carry their version in `_meta` (no handshake).
    var isStateless: Bool { self >= .v20260728 }
    /// Tool annotations, the `completions` capability and progress messages (2025-03-26).
    var hasAnnotations: Bool { self >= .v20250326 }
    /// `structuredContent`, `outputSchema`, `title` and `annotations.lastModified` (2025-06-18).
    var hasStructuredContent: Bool { self >= .v20250618 }
    /// Invalid tool arguments are a tool error result, not a JSON-RPC error (SEP-1303, 2025-11-25).
    var invalidArgumentsAreToolErrors: Bool { self >= .v20251125 }
    /// The code of "resource not found": -32002 until 2025-11-25, then -32602.
    var resourceNotFoundCode: Int { isStateless ? -32602 : -32002 }
}
