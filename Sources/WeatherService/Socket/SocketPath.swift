import Foundation
import WeatherEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the shared daemon of a data dir listens, and the folder that holds its socket.
///
/// The default is `$XDG_RUNTIME_DIR/weatherd/<name>.sock` when the runtime dir exists, where `<name>` is the
/// data dir's last path component (sanitized, at most 32 characters), a dash and 12 hex digits of a hash of
/// its absolute path: two data dirs get two sockets, one data dir always the same, and the path stays well
/// within the 107 bytes a Unix socket address holds. Without a runtime dir the socket is
/// `<dataDir>/weatherd.sock`.
package enum SocketPath {
    /// The longest path a Unix socket address holds, in bytes (107 on Linux, 103 on Darwin).
    package static let maxBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// The default socket of `dataDirectory` (relative paths are taken from `currentDirectory`).
    ///
    /// - Throws: `SocketError` when the path does not fit a socket address.
    package static func defaultPath(
        dataDirectory: String, environment: [String: String],
        currentDirectory: String = FileManager.default.currentDirectoryPath
    ) throws(SocketError) -> String {
        let dataDirectory = standardize(dataDirectory, currentDirectory: currentDirectory)
        let path: String
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"), isDirectory(runtime) {
            let folder = join(standardize(runtime, currentDirectory: "/"), "weatherd")
            path = join(folder, name(dataDirectory: dataDirectory) + ".sock")
        } else {
            path = join(dataDirectory, "weatherd.sock")
        }
        try check(path)
        return path
    }

    /// The socket's file name in the runtime dir, without `.sock`: the last component of the (absolute,
    /// standardized) `dataDirectory` cut to 32 characters of `[A-Za-z0-9._-]`, a dash and 12 hex digits of
    /// the FNV-1a hash of the whole path.
    package static func name(dataDirectory: String) -> String {
        let last = dataDirectory.split(separator: "/").last.map(String.init) ?? ""
        var base = String(
            last.unicodeScalars.prefix(32).map { scalar -> Character in
                let allowed =
                    scalar.isASCII
                    && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar))
                return allowed ? Character(scalar) : "_"
            })
        if base.isEmpty { base = "root" }
        let hash = String(fnv1a64(Array(dataDirectory.utf8)), radix: 16)
        let padded = String(repeating: "0", count: 16 - hash.count) + hash
        return base + "-" + padded.prefix(12)
    }

    /// `path` made absolute against `currentDirectory`, without `.`, `..`, repeated or trailing slashes.
    ///
    /// Symbolic links are not resolved: the name depends on the path as given, not on where it leads.
    package static func standardize(_ path: String, currentDirectory: String) -> String {
        let absolute = path.hasPrefix("/") ? path : currentDirectory + "/" + path
        var components: [Substring] = []
        for component in absolute.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }

    /// Checks that `path` fits a Unix socket address.
    ///
    /// - Throws: `SocketError` naming `--socket` when it is too long (or empty, or holds a NUL).
    package static func check(_ path: String) throws(SocketError) {
        let count = path.utf8.count
        guard count > 0, !path.utf8.contains(0) else { throw SocketError("the socket path \"\(path)\" is not valid") }
        guard count <= maxBytes else {
            throw SocketError(
                "the socket path \(path) is \(count) bytes; a Unix socket path holds at most \(maxBytes); "
                    + "choose a shorter one with --socket")
        }
    }

    /// Makes `folder` a safe home for a socket: creates it (and missing parents) with mode 0700, refuses it
    /// when it is a symbolic link, not a folder or owned by another user, and tightens a looser mode to 0700.
    ///
    /// - Returns: a sentence when a mode was tightened, for a warning on stderr.
    /// - Throws: `SocketError` saying what is wrong and naming `--socket`.
    @discardableResult
    package static func prepareFolder(_ folder: String) throws(SocketError) -> String? {
        var status = stat()
        if lstat(folder, &status) != 0 {
            guard errno == ENOENT else { throw .system("lstat", folder, errno: errno) }
            let parent = (folder as NSString).deletingLastPathComponent
            if !parent.isEmpty, parent != folder, access(parent, F_OK) != 0 { try prepareParents(parent) }
            if mkdir(folder, 0o700) != 0, errno != EEXIST { throw .system("mkdir", folder, errno: errno) }
            guard lstat(folder, &status) == 0 else { throw .system("lstat", folder, errno: errno) }
        }
        let kind = status.st_mode & S_IFMT
        if kind == S_IFLNK {
            throw SocketError(
                "\(folder) is a symbolic link; weatherd keeps its socket only in a real folder of its own; "
                    + "remove the link or choose another --socket")
        }
        guard kind == S_IFDIR else {
            throw SocketError("\(folder) is not a folder; remove it or choose another --socket")
        }
        guard status.st_uid == geteuid() else {
            throw SocketError(
                "\(folder) belongs to uid \(status.st_uid), not to uid \(geteuid()) running weatherd; "
                    + "another user could reach the socket; remove it or choose another --socket")
        }
        let mode = status.st_mode & 0o7777
        guard mode != 0o700 else { return nil }
        guard chmod(folder, 0o700) == 0 else { throw .system("chmod", folder, errno: errno) }
        // A folder just created had its mode cut by the umask; setting it exactly is not news.
        guard mode & 0o077 != 0 else { return nil }
        return "\(folder) had mode \(String(mode, radix: 8)), open to other users; tightened to 700"
    }

    /// Creates the missing folders of `path` (mode 0700), like `mkdir -p`.
    private static func prepareParents(_ path: String) throws(SocketError) {
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path, access(parent, F_OK) != 0 { try prepareParents(parent) }
        if mkdir(path, 0o700) != 0, errno != EEXIST { throw .system("mkdir", path, errno: errno) }
    }

    /// `name` inside `folder`.
    private static func join(_ folder: String, _ name: String) -> String {
        folder == "/" ? "/" + name : folder + "/" + name
    }

    /// Whether `path` is a folder (following links: the runtime dir may be one).
    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// FNV-1a, 64 bits: small, stable across runs and platforms (unlike `Hasher`).
    static func fnv1a64(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
