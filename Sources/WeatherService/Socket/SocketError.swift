#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a Unix socket, its folder or a file next to it could not be set up: a sentence that says what to do.
package struct SocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sentence shown to the user.
    package var message: String
    /// The system error behind it, when there is one.
    package var errno: Int32?

    package init(_ message: String, errno: Int32? = nil) {
        self.message = message
        self.errno = errno
    }

    /// A failed system call: `"<operation> <path>: <strerror>"`.
    static func system(_ operation: String, _ path: String?, errno code: Int32) -> SocketError {
        let target = path.map { " \($0)" } ?? ""
        return SocketError("\(operation)\(target): \(String(cString: strerror(code)))", errno: code)
    }

    package var description: String { message }
}
