import Foundation
import Synchronization
import WeatherDomain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The data dir: created 0700, locked with `flock` on `LOCK`, holding `events.jsonl` (0600).
package struct DataDirectory: Sendable {
    /// The directory's path.
    package let path: String

    package init(path: String) { self.path = path }

    /// The log file's path.
    package var logPath: String { path + "/events.jsonl" }
    /// The lock file's path.
    package var lockPath: String { path + "/LOCK" }

    /// Creates the directory (and its parents) with mode 0700 when missing, fsyncing the parent.
    package func create() throws(StorageError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw StorageError(operation: "mkdir", path: path, errno: ENOTDIR) }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try DataDirectory(path: parent).create() }
        if mkdir(path, 0o700) != 0, errno != EEXIST { throw StorageError(operation: "mkdir", path: path, errno: errno) }
        try Self.syncDirectory(parent.isEmpty ? "." : parent)
    }

    /// Makes a directory's entries (created, renamed files) durable.
    package static func syncDirectory(_ path: String) throws(StorageError) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw StorageError(operation: "open", path: path, errno: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw StorageError(operation: "fsync", path: path, errno: errno) }
    }

    /// Creates the log file (0600) when missing and makes its directory entry durable.
    ///
    /// - Throws: `StorageError`, with `ELOOP` when the log is a symbolic link (weatherd follows none).
    package func ensureLog() throws(StorageError) {
        let fd = open(logPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd >= 0 {
            close(fd)
            try Self.syncDirectory(path)
            return
        }
        guard errno == EEXIST else { throw StorageError(operation: "open", path: logPath, errno: errno) }
        var status = stat()
        guard lstat(logPath, &status) == 0 else { throw StorageError(operation: "lstat", path: logPath, errno: errno) }
        if status.st_mode & S_IFMT == S_IFLNK { throw StorageError(operation: "open", path: logPath, errno: ELOOP) }
    }

    /// Tightens modes looser than weatherd creates them with: the data dir and `snapshots/` to 0700, `LOCK`,
    /// the log and the snapshot files to 0600 (as OpenSSH insists on for a key, other users have no business
    /// reading a log of someone's places).
    ///
    /// Symbolic links are left alone (opening them is refused elsewhere); missing files are skipped.
    ///
    /// - Returns: one sentence per mode changed, for a warning on stderr.
    /// - Throws: `StorageError` when a mode cannot be read or changed.
    package func tightenPermissions() throws(StorageError) -> [String] {
        let snapshots = path + "/snapshots"
        var targets: [(path: String, mode: mode_t)] = [(path, 0o700), (lockPath, 0o600), (logPath, 0o600)]
        targets.append((snapshots, 0o700))
        if let folder = opendir(snapshots) {
            defer { closedir(folder) }
            while let item = readdir(folder) {
                let name = withUnsafeBytes(of: item.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name.hasPrefix("snapshot-") { targets.append((snapshots + "/" + name, 0o600)) }
            }
        }
        var changes: [String] = []
        for target in targets {
            var status = stat()
            if lstat(target.path, &status) != 0 {
                if errno == ENOENT { continue }
                throw StorageError(operation: "lstat", path: target.path, errno: errno)
            }
            let kind = status.st_mode & S_IFMT
            guard kind == S_IFDIR || kind == S_IFREG else { continue }
            let mode = status.st_mode & 0o7777
            guard mode & ~target.mode != 0 else { continue }
            guard chmod(target.path, target.mode) == 0 else {
                throw StorageError(operation: "chmod", path: target.path, errno: errno)
            }
            changes.append(
                "\(target.path) had mode \(String(mode, radix: 8)), open to other users; tightened to "
                    + String(target.mode, radix: 8))
        }
        return changes
    }

    /// Takes the exclusive lock on the data dir, without waiting, and writes into `LOCK` who holds it: this
    /// process's pid on the first line and, for a daemon, the socket it is about to listen on on the second
    /// (so a client whose daemon lost the race for the lock knows whom to wait for).
    ///
    /// - Throws: `LockError.held` naming the process that holds it, or `.failed`.
    package func lock(socket: String? = nil) throws(LockError) -> DirectoryLock {
        let existed = access(lockPath, F_OK) == 0
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .failed(StorageError(operation: "open", path: lockPath, errno: errno)) }
        if !existed {
            do throws(StorageError) {
                try Self.syncDirectory(path)
            } catch {
                close(fd)
                throw .failed(error)
            }
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            let holder = LockHolder.read(fd: fd)
            close(fd)
            guard code == EWOULDBLOCK else {
                throw .failed(StorageError(operation: "flock", path: lockPath, errno: code))
            }
            throw .held(dataDir: path, holderPid: holder.map { Int($0.pid) }, socket: holder?.socket)
        }
        // The holder is informational (it names the holder for a second instance and tells a client whom to
        // wait for); failing to write it is harmless.
        let holder = Array("\(getpid())\n\(socket.map { $0 + "\n" } ?? "")".utf8)
        _ = ftruncate(fd, 0)
        _ = pwrite(fd, holder, holder.count, 0)
        return DirectoryLock(fd: fd)
    }
}

/// The held lock; released when the process exits (or `release` is called).
package final class DirectoryLock: Sendable {
    private let fd: Mutex<Int32?>

    init(fd: Int32) { self.fd = Mutex(fd) }

    /// Releases the lock; later calls do nothing.
    package func release() {
        if let fd = fd.withLock({ fd in
            defer { fd = nil }
            return fd
        }) {
            close(fd)
        }
    }
}

/// Why the data dir could not be locked.
package enum LockError: Error, Sendable, CustomStringConvertible {
    /// Another process holds the lock: a daemon serving `socket`, or (nil) a weatherd serving none.
    case held(dataDir: String, holderPid: Int?, socket: String?)
    /// The lock file could not be opened or locked.
    case failed(StorageError)

    package var description: String {
        switch self {
        case .held(let dataDir, let pid, let socket?):
            "data dir \(dataDir) is in use by the weatherd daemon\(pid.map { " (pid \($0))" } ?? "") listening on "
                + "\(socket); stop it with `weatherd stop --data-dir \(dataDir)`, or choose another --data-dir"
        case .held(let dataDir, let pid?, nil):
            "data dir \(dataDir) is in use by another weatherd (pid \(pid)); stop it or choose another --data-dir"
        case .held(let dataDir, nil, nil):
            "data dir \(dataDir) is in use by another weatherd; stop it or choose another --data-dir"
        case .failed(let error): "cannot lock the data dir: \(error)"
        }
    }
}
