#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Who is at the other end of a connected Unix socket, as the kernel vouches for it.
///
/// The socket's folder (0700) and file (0600) already keep other users out; the daemon checks the peer's
/// uid on every connection as well, so a socket passed by a service manager or a folder with a wrong mode
/// still admits only the user the daemon runs as.
package struct PeerCredentials: Sendable, Equatable {
    /// The peer's process id; nil where the platform does not say (Darwin's `getpeereid`).
    package var pid: Int32?
    /// The peer's effective user id.
    package var uid: UInt32
    /// The peer's effective group id.
    package var gid: UInt32

    package init(pid: Int32?, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    /// The credentials of the peer of `fd` (`SO_PEERCRED` on Linux, `getpeereid` on Darwin).
    ///
    /// - Throws: `SocketError` when `fd` is not a connected Unix socket.
    package init(fd: Int32) throws(SocketError) {
        #if canImport(Glibc)
            // `struct ucred` (pid, uid, gid) is hidden behind _GNU_SOURCE; a tuple has its layout.
            var credentials: (pid_t, uid_t, gid_t) = (0, 0, 0)
            var length = socklen_t(MemoryLayout<(pid_t, uid_t, gid_t)>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
                throw .system("getsockopt(SO_PEERCRED) on descriptor \(fd)", nil, errno: errno)
            }
            self.init(pid: credentials.0, uid: credentials.1, gid: credentials.2)
        #else
            var uid: uid_t = 0
            var gid: gid_t = 0
            guard getpeereid(fd, &uid, &gid) == 0 else {
                throw .system("getpeereid on descriptor \(fd)", nil, errno: errno)
            }
            self.init(pid: nil, uid: uid, gid: gid)
        #endif
    }

    /// Whether a peer running as `peerUID` may use a daemon running as `ownUID`.
    ///
    /// - Returns: nil to admit it, or the refusal to send before closing the connection.
    package static func admit(peerUID: UInt32, ownUID: UInt32) -> String? {
        guard peerUID != ownUID else { return nil }
        return "weatherd: refused: this socket belongs to uid \(ownUID); uid \(peerUID) may not use it"
    }
}
