import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few socket calls weatherd's socket types share, with the platform differences in one place.
enum UnixSocket {
    #if canImport(Glibc)
        /// `SOCK_STREAM` as the `Int32` that `socket` takes.
        static let streamType = Int32(SOCK_STREAM.rawValue)
        /// Flags for `send`: a closed peer is an error (EPIPE), never a SIGPIPE.
        static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
        static let streamType = SOCK_STREAM
        /// On Darwin, `SO_NOSIGPIPE` (set by `make`) does what `MSG_NOSIGNAL` does on Linux.
        static let sendFlags: Int32 = 0
    #endif

    /// A new Unix stream socket, close-on-exec (and without SIGPIPE on Darwin).
    static func make() throws(SocketError) -> Int32 {
        #if canImport(Glibc)
            let fd = socket(AF_UNIX, streamType | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            let fd = socket(AF_UNIX, streamType, 0)
        #endif
        guard fd >= 0 else { throw .system("socket", nil, errno: errno) }
        #if !canImport(Glibc)
            setCloseOnExec(fd)
        #endif
        preventSIGPIPE(fd)
        return fd
    }

    /// A connected pair of Unix stream sockets, both close-on-exec.
    static func pair() throws(SocketError) -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        #if canImport(Glibc)
            let result = socketpair(AF_UNIX, streamType | Int32(SOCK_CLOEXEC.rawValue), 0, &fds)
        #else
            let result = socketpair(AF_UNIX, streamType, 0, &fds)
        #endif
        guard result == 0 else { throw .system("socketpair", nil, errno: errno) }
        #if !canImport(Glibc)
            for fd in fds {
                setCloseOnExec(fd)
                preventSIGPIPE(fd)
            }
        #endif
        return (fds[0], fds[1])
    }

    /// Sets `FD_CLOEXEC`, so a spawned program does not inherit `fd`.
    static func setCloseOnExec(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFD)
        if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
    }

    /// Turns `O_NONBLOCK` on or off.
    static func setNonBlocking(_ fd: Int32, _ on: Bool) {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0 else { return }
        _ = fcntl(fd, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK)
    }

    /// On Darwin, makes writes to a closed peer fail with EPIPE instead of raising SIGPIPE; Linux uses `sendFlags`.
    static func preventSIGPIPE(_ fd: Int32) {
        #if canImport(Darwin)
            var on: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Calls `body` with the address of `path`.
    ///
    /// - Throws: `SocketError` when the path is empty, holds a NUL or does not fit `sun_path`.
    static func withAddress<Result>(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
    ) throws(SocketError) -> Result {
        try SocketPath.check(path)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        #if canImport(Darwin)
            address.sun_len = UInt8(MemoryLayout<sockaddr_un>.size)
        #endif
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.size)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    /// Connects a new socket to `path`, blocking until the listener accepts it into its backlog.
    ///
    /// - Throws: `SocketError` whose `errno` tells why (`ENOENT` or `ECONNREFUSED`: nobody listens).
    static func connect(_ path: String) throws(SocketError) -> Int32 {
        let fd = try make()
        var code: Int32 = 0
        do throws(SocketError) {
            code = try withAddress(path) { address, length in
                while true {
                    #if canImport(Glibc)
                        let result = Glibc.connect(fd, address, length)
                    #else
                        let result = Darwin.connect(fd, address, length)
                    #endif
                    if result == 0 { return 0 }
                    if errno != EINTR { return errno }
                }
            }
        } catch {
            close(fd)
            throw error
        }
        guard code == 0 else {
            close(fd)
            throw .system("connect", path, errno: code)
        }
        return fd
    }

    /// One `send` with `sendFlags`: the count written, or -1 with `errno` set.
    static func send(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.send(fd, bytes, count, sendFlags)
        #else
            Darwin.send(fd, bytes, count, sendFlags)
        #endif
    }

    /// Writes all of `bytes` with blocking `send`s; false once the peer is gone or the socket is shut down.
    static func sendAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        Descriptor.writeAll(fd, bytes, socket: true) == nil
    }

    /// Closes `fd`, for types that have a `close` method of their own.
    static func closeDescriptor(_ fd: Int32) { _ = close(fd) }

    /// Whether `fd` is a socket.
    static func isSocket(_ fd: Int32) -> Bool {
        var status = stat()
        return fstat(fd, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK
    }
}
