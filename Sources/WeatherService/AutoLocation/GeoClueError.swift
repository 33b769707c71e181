/// Why GeoClue gave no location, in words that name no coordinates.
package struct GeoClueError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: String, Sendable {
        case noBus = "no_bus"
        case notRunning = "not_running"
        case refused
        case noFix = "no_fix"
        case failed
    }

    private let code: Code
    package let description: String

    /// The stable kind: `no_bus`, `not_running`, `refused`, `no_fix` or `failed`.
    package var kind: String { code.rawValue }

    /// What a failed exchange on the bus at `address` means.
    init(_ error: DBusError, address: String) {
        switch error {
        case .noBus(let detail), .refused(let detail):
            code = .noBus
            description = "no system bus to ask GeoClue on (\(address): \(detail))"
        case .remote(let name, _)
        where name == "org.freedesktop.DBus.Error.ServiceUnknown" || name == "org.freedesktop.DBus.Error.NameHasNoOwner":
            code = .notRunning
            description = "GeoClue is not running on the system bus (\(name))"
        case .remote("org.freedesktop.DBus.Error.AccessDenied", let message):
            code = .refused
            description = "GeoClue refused weatherd (\(message.isEmpty ? "access denied" : message))"
        case .remote(let name, let message):
            code = .failed
            description = "GeoClue answered \(name)\(message.isEmpty ? "" : ": \(message)")"
        case .broken(let detail):
            code = .failed
            description = "the exchange with GeoClue broke (\(detail))"
        case .noReply(let detail):
            code = .failed
            description = "GeoClue did not answer (no reply \(detail))"
        }
    }

    private init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    /// GeoClue gave no location within `timeout`.
    static func noFix(within timeout: Duration) -> GeoClueError {
        GeoClueError(.noFix, "GeoClue found no location within \(timeout.components.seconds) s")
    }
}
