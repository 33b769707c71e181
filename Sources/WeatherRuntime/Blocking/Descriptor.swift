#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one place weatherd reads and writes file descriptors: an interrupted call (`EINTR`) is retried, a short
/// write continues where it stopped. `readNow` and `writeNow` never wait (the event loop waits for them);
/// `writeAll` and `read` are for descriptors that never make anyone wait long (regular files, and the offline
/// tools' and tests' blocking sockets).
package enum Descriptor {
    /// Writes every byte of `bytes` to `fd`, waiting (with `poll`) while a non-blocking descriptor is full; the
    /// `errno` of the failure (`EPIPE`, `ENOSPC`, …) when it stops short, nil when all are written.
    @discardableResult
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, socket: Bool = false) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = writeNow(fd, UnsafeRawBufferPointer(rebasing: bytes[offset...]), socket: socket)
            if written < 0 { return errno }
            if written == 0 {
                var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                while poll(&ready, 1, -1) < 0, errno == EINTR {}
            }
            offset += written
        }
        return nil
    }

    /// `writeAll` of an array.
    @discardableResult
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8], socket: Bool = false) -> Int32? {
        bytes.withUnsafeBytes { writeAll(fd, $0, socket: socket) }
    }

    /// Writes what `fd` takes now: the count (0 when it takes nothing without waiting), or -1 with `errno` set.
    /// A socket is written with `send` (`MSG_DONTWAIT`, and `MSG_NOSIGNAL` so a gone peer is `EPIPE`, never a
    /// signal); another descriptor must be non-blocking for this not to wait.
    package static func writeNow(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, socket: Bool) -> Int {
        var offset = 0
        while offset < bytes.count {
            let start = bytes.baseAddress! + offset
            let count =
                socket
                ? send(fd, start, bytes.count - offset, Int32(MSG_DONTWAIT) | sendFlags)
                : systemWrite(fd, start, bytes.count - offset)
            if count > 0 {
                offset += count
                continue
            }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return offset }
            if count == 0 { errno = EIO }
            return -1
        }
        return offset
    }

    /// Reads what `fd` has now, at most `buffer.count` bytes: the count (0 at the end of the input), or -1 with
    /// `errno` set (`EAGAIN`: nothing yet).
    package static func readNow(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, socket: Bool) -> Int {
        while true {
            let count =
                socket
                ? recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
                : systemRead(fd, buffer.baseAddress!, buffer.count)
            if count < 0, errno == EINTR { continue }
            return count
        }
    }

    /// Reads what blocking `fd` has, at most `buffer.count` bytes, waiting for some: the count (0 at the end of
    /// the input), or -1 with `errno` set.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let count = systemRead(fd, buffer.baseAddress!, buffer.count)
            if count < 0, errno == EINTR { continue }
            return count
        }
    }

    /// Closes `fd` (an error, such as `EINTR` on Linux, leaves nothing to retry).
    package static func close(_ fd: Int32) {
        #if canImport(Glibc)
            _ = Glibc.close(fd)
        #else
            _ = Darwin.close(fd)
        #endif
    }

    #if canImport(Glibc)
        /// Flags for `send`: a closed peer is an error (EPIPE), never a SIGPIPE.
        package static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
        /// On Darwin, `SO_NOSIGPIPE` set on the socket does what `MSG_NOSIGNAL` does on Linux.
        package static let sendFlags: Int32 = 0
    #endif

    private static func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(fd, bytes, count)
        #else
            Darwin.write(fd, bytes, count)
        #endif
    }

    private static func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.read(fd, buffer, count)
        #else
            Darwin.read(fd, buffer, count)
        #endif
    }
}
