import WeatherRuntime
import WeatherService

/// The desktop's notification server (`org.freedesktop.Notifications`) over a session-bus connection.
struct Desktop: Sendable {
    static let destination = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"

    let connection: DBusConnection

    /// Connects to the session bus at `address` and checks that a notification server is on it.
    ///
    /// - Throws: `DBusError`: `.noBus`, `.refused`, `.broken`, or `.remote` (ServiceUnknown: no server).
    static func connect(address: String, uid: UInt32, runtime: Runtime) async throws(DBusError) -> Desktop {
        let desktop = Desktop(
            connection: try await DBusConnection.connect(address: address, uid: uid, runtime: runtime))
        _ = try await desktop.call("GetServerInformation", [])
        return desktop
    }

    /// The Notify call's arguments for `notice`: app_name, replaces_id, app_icon, summary, body, actions,
    /// hints (urgency) and expire_timeout (-1: the server's default).
    static func arguments(_ notice: AlertNotice, replaces: UInt32) -> [DBusValue] {
        [
            .string("weatherd"), .uint32(replaces), .string(notice.icon), .string(notice.summary),
            .string(notice.body), .array("s", []),
            .vardict([("urgency", .byte(notice.urgency)), ("category", .string("weather"))]), .int32(-1),
        ]
    }

    /// Shows `notice` (in place of `replaces` when not 0) and returns the server's id for it.
    func show(_ notice: AlertNotice, replaces: UInt32) async throws(DBusError) -> UInt32 {
        let reply = try await call("Notify", Self.arguments(notice, replaces: replaces))
        guard let id = reply.first?.uint32Value else { throw .broken("Notify answered no id") }
        return id
    }

    /// Closes the notification `id`.
    func close(_ id: UInt32) async throws(DBusError) {
        _ = try await call("CloseNotification", [.uint32(id)])
    }

    private func call(_ member: String, _ body: [DBusValue]) async throws(DBusError) -> [DBusValue] {
        try await connection.call(
            destination: Self.destination, path: Self.path, interface: Self.destination, member: member, body)
    }
}
