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

    /// Waits for the next signal that `matches` accepts, skipping others; signals that came while a call
    /// waited for its reply were skipped then, so ask for a state (a property) before waiting for its change.
    ///
    /// The wait has no end of its own: bound it (`withDeadline`) and `disconnect` when it is given up.
    ///
    /// - Throws: `DBusError.broken` when the connection ends or breaks first.
    package func nextSignal(where matches: @escaping @Sendable (DBusMessage) -> Bool) async throws(DBusError)
        -> DBusMessage
    {
        let result = await onOwnThread(named: "dbus-signal") { [self] () -> Result<DBusMessage, DBusError> in
            calls.withLock { framer in
                while true {
                    let next: DBusMessage?
                    do throws(DBusWireError) {
                        next = try framer.message()
                    } catch {
                        return .failure(.broken(error.message))
                    }
                    if let message = next {
                        if message.kind == .signal, matches(message) { return .success(message) }
                        continue
                    }
                    do throws(DBusError) {
                        try Self.fill(fd, &framer, during: "")
                    } catch {
                        return .failure(error)
                    }
                }
            }
        }
        return try result.get()
    }

    /// Sends a method call that asks for no reply (flag 0x1) and returns once it is written, without waiting
    /// for a call in progress: for ending something (GeoClue's `Stop`) while a wait is being given up. It must
    /// not race another call's sending, which only `call` does.
    package func send(
        destination: String, path: String, interface: String, member: String, _ body: [DBusValue] = []
    ) throws(DBusError) {
        var message = DBusMessage.call(
            serial: nextSerial(), destination: destination, path: path, interface: interface, member: member,
            body: body)
        message.flags = 1
        try Self.send(fd, message.bytes)
    }

    /// Shuts the connection down both ways: a wait in progress (`nextSignal`, a call) ends with `.broken`, and
    /// so does every later call. The descriptor is closed when the connection is released.
    package func disconnect() {
        shutdownSocket(fd, .both)
    }
}
