extension DBusConnection {
    /// The standard interface through which every object's properties are read and written.
    package static let propertiesInterface = "org.freedesktop.DBus.Properties"

    /// Reads the property `name` of `interface` on the object at `path` (`Properties.Get`): its value, out of
    /// the variant it comes in.
    ///
    /// - Throws: `DBusError`; `.broken` when the answer is not one variant.
    package func property(
        destination: String, path: String, interface: String, name: String
    ) async throws(DBusError) -> DBusValue {
        let body = try await call(
            destination: destination, path: path, interface: Self.propertiesInterface, member: "Get",
            [.string(interface), .string(name)])
        guard body.count == 1, case .variant(let value) = body[0] else {
            throw .broken("\(interface).\(name) came as \(body.map(\.signature).joined()), not one variant")
        }
        return value.unwrapped
    }

    /// Writes the property `name` of `interface` on the object at `path` (`Properties.Set`).
    package func setProperty(
        destination: String, path: String, interface: String, name: String, _ value: DBusValue
    ) async throws(DBusError) {
        _ = try await call(
            destination: destination, path: path, interface: Self.propertiesInterface, member: "Set",
            [.string(interface), .string(name), .variant(value)])
    }
}
