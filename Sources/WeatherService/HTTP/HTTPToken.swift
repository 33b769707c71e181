import EventLog
import Foundation
import WeatherEngine
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The secret that opens the HTTP face's private routes: 32 random bytes, hex, in `DIR/http-token` (mode 0600,
/// made at the first `serve` with `--http-listen`). A client sends it as `Authorization: Bearer <token>`; it is
/// compared in constant time and never logged.
package struct HTTPToken: Sendable {
    /// The file's name in the data dir.
    package static let fileName = "http-token"

    private let secret: [UInt8]

    package init(_ text: String) { secret = Array(text.utf8) }

    /// The token itself, for `weatherd http-token` to print (never logged).
    package var text: String { String(decoding: secret, as: UTF8.self) }

    /// The token in `dataDirectory`, made (0600) when there is none.
    ///
    /// - Throws: `SocketError` when the file cannot be made or read, is empty, or others may read it (a token
    ///   every local user can read protects nothing).
    package static func loadOrCreate(dataDirectory: String) throws(SocketError) -> HTTPToken {
        if let kept = try load(dataDirectory: dataDirectory) { return kept }
        // Written whole or not at all (a crash leaves no empty token behind); the data dir's lock, held by this
        // serve, keeps a second one from making another meanwhile.
        let text = Secret.randomHex(bytes: 32)
        do throws(StorageError) {
            try LogFiles.replaceFile(path(dataDirectory), with: Array((text + "\n").utf8), mode: 0o600)
        } catch {
            throw .system(error.operation, error.path, errno: error.errno)
        }
        return HTTPToken(text)
    }

    /// The token in `dataDirectory`, or nil when none was made yet.
    ///
    /// - Throws: `SocketError` when the file cannot be read, holds no token, or others may read it.
    package static func load(dataDirectory: String) throws(SocketError) -> HTTPToken? {
        let path = path(dataDirectory)
        let bytes: [UInt8]
        do throws(StorageError) {
            guard let kept = try LogFiles.readWholeFile(path) else { return nil }
            bytes = kept
        } catch {
            throw .system(error.operation, error.path, errno: error.errno)
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw .system("stat", path, errno: errno) }
        guard status.st_mode & 0o077 == 0 else {
            throw SocketError("\(path) may be read by other users; chmod 600 it (or remove it to make a new token)")
        }
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count >= 16 else { throw SocketError("\(path) holds no token of at least 16 characters") }
        return HTTPToken(text)
    }

    private static func path(_ dataDirectory: String) -> String {
        (dataDirectory as NSString).appendingPathComponent(fileName)
    }

    /// Whether `header` (an `Authorization` value) is `Bearer <this token>`, compared in constant time.
    package func admits(authorization header: String?) -> Bool {
        guard let header, header.lowercased().hasPrefix("bearer ") else { return false }
        return Secret.equal(secret, Array(header.dropFirst(7).utf8))
    }
}
