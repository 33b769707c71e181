import Foundation
import WeatherDomain
import WeatherService

/// The file that keeps `weatherd notify`'s cursor: `$XDG_STATE_HOME/weatherd/notify-<hash>.json` (else
/// `~/.local/state/weatherd/`), one per data dir (the hash is of its path), replaced whole on each write.
struct CursorStore: Sendable {
    let path: String

    /// The file for the data dir `dataDirectory`.
    ///
    /// - Throws: `RPCError` when neither XDG_STATE_HOME nor HOME is set.
    init(dataDirectory: String, variables: [String: String]) throws {
        let base: String
        if let state = variables["XDG_STATE_HOME"], state.hasPrefix("/") {
            base = state
        } else if let home = variables["HOME"], !home.isEmpty {
            base = home + "/.local/state"
        } else {
            throw RPCError.application("no_state_directory", "neither XDG_STATE_HOME nor HOME is set")
        }
        path = base + "/weatherd/notify-" + Self.hash(dataDirectory) + ".json"
    }

    /// FNV-1a of `text`, in hex: a stable name for a data dir's path.
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value &*= 0x100_0000_01b3
        }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The cursor kept, or a new one when there is none yet.
    func load() throws -> NotifyCursor {
        guard FileManager.default.fileExists(atPath: path) else { return NotifyCursor() }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try NotifyCursor(json: try JSONValue.parse(text))
    }

    /// Writes `cursor` to a temporary file beside it and renames it over the old one.
    func save(_ cursor: NotifyCursor) throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try (cursor.json.jsonString + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }
}
