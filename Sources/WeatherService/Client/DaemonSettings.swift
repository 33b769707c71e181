import WeatherDomain
import WeatherEngine
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A running daemon keeps the settings it was started with; a client that asked for other values of the
/// options a daemon holds is told so, in one line on stderr, rather than silently served by the daemon's.
package enum DaemonSettings {
    /// The id of the relay's own `service/status`, sent before anything of the client's.
    static let checkID = "weatherd-settings-check"

    /// The line for stderr when the daemon's status (`service/status`) shows other values than
    /// `configuration`'s of the options the client gave (`Configuration.differences(fromDaemon:)`); nil when
    /// they agree (or the status does not show its options).
    package static func mismatch(status: JSONValue, configuration: Configuration) -> String? {
        guard case .object(let options)? = status["options"] else { return nil }
        let differences = configuration.differences(fromDaemon: options.compactMapValues(\.stringValue))
        guard !differences.isEmpty else { return nil }
        let pid = status["pid"]?.intValue.map { " (pid \($0))" } ?? ""
        return "weatherd: the running daemon\(pid) keeps the settings it was started with, not these: "
            + differences.joined(separator: "; ") + "; to apply them, run `weatherd stop`, then this again"
    }

    /// Asks the daemon on `socket`, before anything else is sent on it, for its status, and reads the one line
    /// it answers (blocking: call it on a thread of its own).
    ///
    /// - Returns: the status; or, when the daemon sent something else (an error for the whole connection),
    ///   that line, which belongs to the client.
    static func ask(socket: Int32) -> (status: JSONValue?, otherLine: [UInt8]?) {
        let request = Array(#"{"jsonrpc":"2.0","id":"\#(checkID)","method":"service/status"}"#.utf8) + [0x0A]
        _ = request.withUnsafeBytes { UnixSocket.sendAll(socket, $0) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.count < 1 << 20 {
            let count = read(socket, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return (nil, line.isEmpty ? nil : line) }
            if byte == 0x0A { break }
            line.append(byte)
        }
        guard let answer = try? JSONValue.parse(line), answer["id"] == .string(checkID) else { return (nil, line) }
        return (answer["result"], nil)
    }
}
