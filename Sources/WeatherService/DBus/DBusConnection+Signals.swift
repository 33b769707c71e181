import WeatherRuntime

extension DBusConnection {
    /// A match rule for signals (D-Bus specification, "Match Rules"): those of `interface` and `member`, from
    /// the object at `path` when given.
    package static func signalRule(path: String? = nil, interface: String, member: String) -> String {
        var rule = "type='signal',interface='\(interface)',member='\(member)'"
        if let path { rule += ",path='\(path)'" }
        return rule
    }

    /// Asks the bus to route the signals `rule` matches to this connection (`org.freedesktop.DBus.AddMatch`):
    /// a signal sent to no one in particular reaches only the connections that asked for it.
    package func addMatch(_ rule: String) async throws(DBusError) {
        _ = try await call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "AddMatch", [.string(rule)])
    }

    /// Waits for the next signal that `matches` accepts: the oldest such one that came since the connection
    /// opened and nobody claimed (the last 64 are kept), else the next to come.
    ///
    /// The wait has no end of its own: bound it, and `disconnect` (or cancel the task) when it is given up.
    ///
    /// - Throws: `DBusError.broken` when the connection ends or breaks first.
    package func nextSignal(where matches: @escaping @Sendable (DBusMessage) -> Bool) async throws(DBusError)
        -> DBusMessage
    {
        try await link.nextSignal(where: matches)
    }

    /// Sends a method call that asks for no reply (flag 0x1): for ending something (GeoClue's `Stop`) while a
    /// wait is being given up.
    package func send(
        destination: String, path: String, interface: String, member: String, _ body: [DBusValue] = []
    ) {
        var message = DBusMessage.call(
            serial: link.nextSerial(), destination: destination, path: path, interface: interface, member: member,
            body: body)
        message.flags = 1
        link.write(message.bytes)
    }
}
