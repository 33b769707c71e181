#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one loop weatherd reads and writes file descriptors with: an interrupted call (`EINTR`) is retried, a
/// short write continues where it stopped, and a descriptor that would block (`EAGAIN`, a non-blocking pipe
/// inherited from a parent) is waited on with `poll` rather than spun on.
package enum Descriptor {
    /// How bytes go out: `write(2)`, or `send(2)` with flags (`MSG_NOSIGNAL`, so a gone peer is an error, not
    /// a signal).
    package enum Output: Sendable {
        case write
        case send(flags: Int32)
    }

    /// Writes every byte of `bytes` to `fd`; the `errno` of the failure (`EPIPE`, `ENOSPC`, …) when it stops
    /// short, nil when all are written.
    @discardableResult
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, using output: Output = .write) -> Int32?
    {
        var offset = 0
        while offset < bytes.count {
            let start = bytes.baseAddress! + offset
            let written =
                switch output {
                case .write: systemWrite(fd, start, bytes.count - offset)
                case .send(let flags): systemSend(fd, start, bytes.count - offset, flags)
                }
            if written > 0 {
                offset += written
                continue
            }
            if written == 0 { return EIO }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: wait(fd, for: Int16(POLLOUT))
            case let code: return code
            }
        }
        return nil
    }

    /// `writeAll` of an array.
    @discardableResult
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8], using output: Output = .write) -> Int32? {
        bytes.withUnsafeBytes { writeAll(fd, $0, using: output) }
    }

    /// Reads what `fd` has, at most `buffer.count` bytes, waiting for some: the count (0 at the end of the
    /// input), or -1 with `errno` set. An interrupted read is retried; an empty non-blocking one waits.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let count = systemRead(fd, buffer.baseAddress!, buffer.count)
            if count >= 0 { return count }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: wait(fd, for: Int16(POLLIN))
            default: return count
            }
        }
    }

    /// Waits until `fd` is ready for `events` (or has hung up).
    private static func wait(_ fd: Int32, for events: Int16) {
        var ready = pollfd(fd: fd, events: events, revents: 0)
        while poll(&ready, 1, -1) < 0, errno == EINTR {}
    }

    private static func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(fd, bytes, count)
        #else
            Darwin.write(fd, bytes, count)
        #endif
    }

    private static func systemSend(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
        #if canImport(Glibc)
            Glibc.send(fd, bytes, count, flags)
        #else
            Darwin.send(fd, bytes, count, flags)
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
