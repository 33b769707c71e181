#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Who holds a data dir's lock, as the holder wrote it into `LOCK` (`DataDirectory.lock(socket:)`): its pid on
/// the first line and, for a daemon, the socket it listens on on the second.
package struct LockHolder: Sendable, Equatable {
    package var pid: Int32
    /// The daemon's socket; nil for a weatherd that serves none (`--standalone`, a command).
    package var socket: String?

    package init(pid: Int32, socket: String?) {
        self.pid = pid
        self.socket = socket
    }

    /// Reads `LOCK`'s text; nil when its first line is not a pid. A second line counts only once its newline
    /// is written (a holder caught mid-write names no socket yet).
    package init?(_ text: some Collection<UInt8>) {
        let lines = text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard let first = lines.first, let pid = Int32(String(decoding: first, as: UTF8.self).trimmingWhitespace),
            pid > 0
        else { return nil }
        self.pid = pid
        socket = lines.count > 2 && !lines[1].isEmpty ? String(decoding: lines[1], as: UTF8.self) : nil
    }

    /// The holder named in the `LOCK` file at `path`; nil when there is none, or the file cannot be read.
    /// (The file outlives its holder: whether that process still runs is the caller's question.)
    package static func read(lockPath path: String) -> LockHolder? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return read(fd: fd)
    }

    /// The holder named in the open `LOCK` file `fd`, read from its start.
    static func read(fd: Int32) -> LockHolder? {
        // A pid and a socket path (at most PATH_MAX) fit.
        var buffer = [UInt8](repeating: 0, count: 4200)
        let count = pread(fd, &buffer, buffer.count, 0)
        return count > 0 ? LockHolder(buffer[..<count]) : nil
    }
}
