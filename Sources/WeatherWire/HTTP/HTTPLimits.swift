/// The bounds a request must keep, each answered with its own status when passed.
package struct HTTPLimits: Sendable, Equatable {
    /// The longest request line (414 past it).
    package var maxRequestLineBytes = 8192
    /// The largest head: the request line and the header fields up to the blank line (431 past it). 8 KiB, as
    /// common servers allow.
    package var maxHeadBytes = 8192
    /// The most header fields (431 past it).
    package var maxHeaderFields = 100
    /// The largest body, after de-chunking (413 past it): 1 MiB.
    package var maxBodyBytes = 1 << 20
    /// The longest chunk-size line, extensions included (400 past it).
    package var maxChunkLineBytes = 1024

    package init() {}
}
