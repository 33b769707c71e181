import Foundation
import WeatherDomain

/// The user and password, or the token, weatherd gives a NATS server (`--nats-credentials FILE`).
///
/// The file holds `user=NAME` and `password=SECRET` lines, or a `token=SECRET` line (blank lines and lines
/// starting with `#` are skipped). Secrets are read from a file, never from a flag, so they never show in `ps`;
/// nothing here is logged.
package struct NATSCredentials: Sendable, Equatable {
    package var user: String?
    package var password: String?
    package var token: String?

    package init(user: String? = nil, password: String? = nil, token: String? = nil) {
        self.user = user
        self.password = password
        self.token = token
    }

    /// Reads the file's text.
    ///
    /// - Throws: `NATSError` naming the line that is wrong (never its value).
    package init(parsing text: String) throws(NATSError) {
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw).trimmingWhitespace
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw .credentials("line \(number + 1) is not NAME=VALUE")
            }
            let value = String(line[line.index(after: equals)...])
            switch String(line[..<equals]).trimmingWhitespace {
            case "user": user = value
            case "password": password = value
            case "token": token = value
            default: throw .credentials("line \(number + 1) names neither user, password nor token")
            }
        }
        guard (user == nil) == (password == nil) else { throw .credentials("a user needs a password and back") }
        guard user != nil || token != nil else { throw .credentials("it holds neither a user nor a token") }
        guard user == nil || token == nil else { throw .credentials("it holds both a user and a token") }
    }

    /// The credentials in the file at `path` (`--nats-credentials`); nil when no file is given.
    ///
    /// - Throws: `NATSError` when the file cannot be read or is wrong.
    package static func load(path: String?) throws(NATSError) -> NATSCredentials? {
        guard let path else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .credentials("\(path) cannot be read")
        }
        return try NATSCredentials(parsing: String(decoding: data, as: UTF8.self))
    }

    /// Adds them to `CONNECT`'s options.
    func add(to options: inout [String: JSONValue]) {
        if let user, let password {
            options["user"] = .string(user)
            options["pass"] = .string(password)
        }
        if let token { options["auth_token"] = .string(token) }
    }
}
