import Foundation
import Synchronization
import WeatherEngine
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A listening Unix stream socket, accepted on the event loop.
///
/// A listener made from a path binds it inside its folder (which `SocketPath.prepareFolder` keeps 0700), sets
/// the socket file to 0600 before `listen`, so it is never connectable with a looser mode, and unlinks the
/// file at `close` if it is still the one it created. An adopted listener (systemd's) leaves the file alone.
///
/// Accepting runs on the event loop (`AcceptLoop`). Descriptors are close-on-exec; accepted ones are
/// non-blocking.
package final class UnixListener: Sendable {
    /// The listening descriptor.
    package var fd: Int32 { accepting.fd }
    /// The socket file's path (for an adopted socket, what `getsockname` says; nil when it has none).
    package let path: String?
    /// The socket file this listener created, unlinked at `close`; nil when adopted.
    private let created: FileIdentity?
    private let accepting: AcceptLoop

    /// A file's device and inode, to tell the socket file this listener made from one put there later.
    private struct FileIdentity: Sendable, Equatable {
        var device: UInt64
        var inode: UInt64

        init?(path: String) {
            var status = stat()
            guard lstat(path, &status) == 0 else { return nil }
            device = UInt64(truncatingIfNeeded: status.st_dev)
            inode = UInt64(truncatingIfNeeded: status.st_ino)
        }
    }

    /// Binds and listens on `path`.
    ///
    /// A socket file already there is probed: if something answers, weatherd refuses to take it over; if
    /// nothing does (ECONNREFUSED: a daemon that died), the stale file is replaced. Call it while holding the
    /// data dir's lock, so two daemons never race for the same file.
    ///
    /// - Throws: `SocketError` with `errno` `EADDRINUSE` when a weatherd already listens on `path`, or
    ///   another `SocketError` (path too long, not a socket, permission denied).
    package init(path: String, backlog: Int32 = 128) throws(SocketError) {
        try SocketPath.check(path)
        try Self.removeStale(path)
        let fd = try UnixSocket.make()
        let bound = try UnixSocket.withAddress(path) { address, length in bind(fd, address, length) == 0 ? 0 : errno }
        guard bound == 0 else {
            UnixSocket.closeDescriptor(fd)
            if bound == EADDRINUSE { throw Self.alreadyListening(path) }
            throw .system("bind", path, errno: bound)
        }
        // Before `listen` nobody can connect; the folder (0700) keeps others out until then in any case.
        guard chmod(path, 0o600) == 0, listen(fd, backlog) == 0, let identity = FileIdentity(path: path) else {
            let error = SocketError.system("listen", path, errno: errno)
            UnixSocket.closeDescriptor(fd)
            unlink(path)
            throw error
        }
        accepting = AcceptLoop(fd: fd, label: path)
        self.path = path
        self.created = identity
    }

    /// Takes over a listening socket passed by the service manager (see `SystemdSockets`).
    ///
    /// - Throws: `SocketError` when `fd` is not a listening Unix stream socket.
    package init(adopting fd: Int32) throws(SocketError) {
        try Self.checkListening(fd)
        let path = Self.boundPath(fd)
        accepting = AcceptLoop(fd: fd, label: path)
        UnixSocket.setCloseOnExec(fd)
        self.path = path
        self.created = nil
    }

    /// Starts accepting on `runtime`'s loop: each accepted connection goes to `onConnection` (on the loop's
    /// thread), which owns (and closes) it.
    ///
    /// `onEnd` is called once when accepting stops: with nil after `close`, or with the error that stopped
    /// it. Calls after the first, or after `close`, do nothing.
    package func start(
        on runtime: Runtime, onConnection: @escaping @Sendable (Int32) -> Void,
        onEnd: @escaping @Sendable (SocketError?) -> Void = { _ in }
    ) {
        accepting.start(on: runtime, onConnection: onConnection, onEnd: onEnd)
    }

    /// Stops accepting: the socket file this listener created is unlinked and the descriptor closed (on the
    /// loop's thread). Connections already accepted are not touched. Later calls do nothing.
    package func close() {
        accepting.close { [path, created] in
            if let path, let created, FileIdentity(path: path) == created { unlink(path) }
        }
    }

    /// Removes a socket file nobody listens on; refuses a live one and anything that is not a socket.
    private static func removeStale(_ path: String) throws(SocketError) {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            if errno == ENOENT { return }
            throw .system("lstat", path, errno: errno)
        }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw SocketError("\(path) exists and is not a socket; remove it or choose another --socket")
        }
        do throws(SocketError) {
            let probe = try UnixSocket.connect(path)
            UnixSocket.closeDescriptor(probe)
        } catch {
            guard error.errno == ECONNREFUSED || error.errno == ENOENT else { throw error }
            if unlink(path) != 0, errno != ENOENT { throw .system("unlink", path, errno: errno) }
            return
        }
        throw alreadyListening(path)
    }

    private static func alreadyListening(_ path: String) -> SocketError {
        SocketError("a weatherd is already listening on \(path)", errno: EADDRINUSE)
    }

    /// Checks that `fd` is a Unix stream socket in listening state.
    ///
    /// - Throws: `SocketError` saying what `fd` is instead.
    static func checkListening(_ fd: Int32) throws(SocketError) {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_TYPE, &value, &length) == 0 else {
            throw SocketError(
                "descriptor \(fd) is not a socket (\(String(cString: strerror(errno)))); "
                    + "the service manager must pass a listening Unix stream socket", errno: errno)
        }
        guard value == UnixSocket.streamType else {
            throw SocketError("descriptor \(fd) is not a stream socket; set ListenStream= in the .socket unit")
        }
        var address = sockaddr_storage()
        var addressLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &addressLength) }
        }
        guard named == 0, Int32(address.ss_family) == AF_UNIX else {
            throw SocketError("descriptor \(fd) is not a Unix socket; ListenStream= must name a path")
        }
        length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &value, &length) == 0, value != 0 else {
            throw SocketError("descriptor \(fd) is a socket but not listening; Accept= must be no in the .socket unit")
        }
    }

    /// The path `fd` is bound to, if any.
    private static func boundPath(_ fd: Int32) -> String? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { return nil }
        let path = withUnsafeBytes(of: address.sun_path) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return path.isEmpty ? nil : path
    }
}
