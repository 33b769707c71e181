#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A system call that failed: which one, and its `errno`.
package struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call, e.g. `epoll_ctl`.
    package var call: String
    /// Its `errno`.
    package var errno: Int32

    package init(_ call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    package var description: String { "\(call): \(String(cString: strerror(errno)))" }
}
