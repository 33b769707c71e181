#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which directions of a socket `shutdownSocket` ends.
package enum SocketDirection: Sendable {
    /// Reading: a thread blocked reading it returns at once, as at end of input.
    case read
    /// Both: the peer sees end of input, and a thread waiting for a hang-up wakes.
    case both
}

/// Shuts a socket down in `direction` (errors, such as a peer already gone, are of no interest here).
package func shutdownSocket(_ fd: Int32, _ direction: SocketDirection) {
    let how: Int32
    switch direction {
    case .read: how = Int32(SHUT_RD)
    case .both: how = Int32(SHUT_RDWR)
    }
    #if canImport(Glibc)
        _ = Glibc.shutdown(fd, how)
    #elseif canImport(Darwin)
        _ = Darwin.shutdown(fd, how)
    #endif
}
