import Synchronization
import WeatherRuntime
import WeatherService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// GeoClue2 on a real message bus, for tests: it connects as any client of the bus does, owns
/// `org.freedesktop.GeoClue2`, and answers as GeoClue does: `Manager.GetClient` gives a client object, whose
/// properties are read and written through `org.freedesktop.DBus.Properties` (`DesktopId` must be set before
/// `Start`, as GeoClue's authorization needs it), whose `Start` finds a location (or refuses, or never finds
/// one) and whose `Stop` stops it; the location object's `Latitude`, `Longitude` and `Accuracy` are read the
/// same way. A location found after `Start` is announced by `LocationUpdated`, sent to no one in particular,
/// so only a client that asked the bus for it (`AddMatch`) gets it. It keeps every call for the test.
package final class TestGeoClue: Sendable {
    /// What `Start` does.
    package enum Behaviour: Sendable, Equatable {
        /// The location is there when `Start` is answered (one GeoClue had already); no signal follows.
        case fixAtOnce(lat: Double, lon: Double, accuracy: Double)
        /// `Start` is answered without a location; the client's first read of `Location` after it answers `/`,
        /// and then the location is found and announced with `LocationUpdated`.
        case fixAfterStart(lat: Double, lon: Double, accuracy: Double)
        /// `Start` answers `AccessDenied`, as GeoClue does when no agent lets the application locate.
        case refuse
        /// `Start` is answered and no location is ever found.
        case silent
    }

    package static let clientPath = "/org/freedesktop/GeoClue2/Client/1"
    package static let locationPath = "/org/freedesktop/GeoClue2/Location/1"
    /// The message `refuse` answers with, as GeoClue words it.
    package static let refusal = "'weatherd' disallowed, no agent for UID \(getuid())"

    /// The properties of each interface and their types, as GeoClue's introspection describes them: the ones a
    /// client may write are `writable`.
    package static let properties: [String: [String: (type: String, writable: Bool)]] = [
        GeoClue.managerInterface: ["InUse": ("b", false), "AvailableAccuracyLevel": ("u", false)],
        GeoClue.clientInterface: [
            "Location": ("o", false), "DistanceThreshold": ("u", true), "TimeThreshold": ("u", true),
            "DesktopId": ("s", true), "RequestedAccuracyLevel": ("u", true), "Active": ("b", false),
        ],
        GeoClue.locationInterface: [
            "Latitude": ("d", false), "Longitude": ("d", false), "Accuracy": ("d", false), "Altitude": ("d", false),
            "Speed": ("d", false), "Heading": ("d", false), "Description": ("s", false),
        ],
    ]

    private let behaviour: Behaviour
    private let fd: Int32
    private let state = Mutex(State())

    private struct State {
        var calls: [DBusMessage] = []
        /// The client's properties as written and as GeoClue sets them.
        var client: [String: DBusValue] = [
            "Location": .objectPath("/"), "DistanceThreshold": .uint32(0), "TimeThreshold": .uint32(0),
            "DesktopId": .string(""), "RequestedAccuracyLevel": .uint32(0), "Active": .boolean(false),
        ]
        var stopped = false
    }

    /// Connects to the bus at `address`, takes GeoClue's name and starts answering on a thread of its own.
    ///
    /// - Throws: `DBusError` when the bus cannot be reached or gives the name to another connection.
    package static func start(address: String, _ behaviour: Behaviour) async throws(DBusError) -> TestGeoClue {
        let (fd, _, framer) = try await TestBusPeer.connect(address: address, owning: GeoClue.service)
        return TestGeoClue(fd: fd, framer: framer, behaviour: behaviour)
    }

    private init(fd: Int32, framer: DBusFramer, behaviour: Behaviour) {
        self.fd = fd
        self.behaviour = behaviour
        // The serving thread owns the descriptor and closes it when reading ends (after `stop`).
        startThread(named: "test-geoclue") { [self] in
            TestBusPeer.serve(fd, framer) { call, serial in answer(call, serial: &serial) }
            close(fd)
        }
    }

    /// Every method call GeoClue received, in order.
    package var calls: [DBusMessage] { state.withLock { $0.calls } }

    /// The calls of `member`.
    package func calls(_ member: String) -> [DBusMessage] { calls.filter { $0.member == member } }

    /// The client's property `name` as it stands.
    package func clientProperty(_ name: String) -> DBusValue? { state.withLock { $0.client[name] } }

    /// Leaves the bus (once): the serving thread's read ends and it closes the socket.
    package func stop() {
        let first = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        if first { shutdownSocket(fd, .both) }
    }

    deinit { stop() }

    /// The messages that answer `call`: its reply (or error), and a signal after it for a location found late.
    private func answer(_ call: DBusMessage, serial: inout UInt32) -> [DBusMessage] {
        state.withLock { $0.calls.append(call) }
        func reply(_ body: [DBusValue]) -> DBusMessage {
            serial += 1
            return DBusMessage(
                kind: .methodReturn, serial: serial, replySerial: call.serial, destination: call.sender, body: body)
        }
        func error(_ name: String, _ text: String) -> DBusMessage {
            serial += 1
            return DBusMessage(
                kind: .error, serial: serial, errorName: name, replySerial: call.serial, destination: call.sender,
                body: [.string(text)])
        }
        switch (call.path, call.interface, call.member, call.signature) {
        case (GeoClue.managerPath, GeoClue.managerInterface, "GetClient", ""),
            (GeoClue.managerPath, GeoClue.managerInterface, "CreateClient", ""):
            return [reply([.objectPath(Self.clientPath)])]
        case (_, DBusConnection.propertiesInterface, "Get", "ss"):
            guard let value = property(call.path, call.body[0].text, call.body[1].text) else {
                return [error("org.freedesktop.DBus.Error.UnknownProperty", "no such property")]
            }
            let answered = reply([.variant(value)])
            guard call.path == Self.clientPath, call.body[1].text == "Location", findsLate() else { return [answered] }
            serial += 1
            let updated = DBusMessage(
                kind: .signal, serial: serial, path: Self.clientPath, interface: GeoClue.clientInterface,
                member: "LocationUpdated", body: [.objectPath("/"), .objectPath(Self.locationPath)])
            return [answered, updated]
        case (Self.clientPath, DBusConnection.propertiesInterface, "Set", "ssv"):
            guard call.body[0].text == GeoClue.clientInterface, let name = call.body[1].text,
                let declared = Self.properties[GeoClue.clientInterface]?[name]
            else { return [error("org.freedesktop.DBus.Error.UnknownProperty", "no such property")] }
            guard declared.writable else {
                return [error("org.freedesktop.DBus.Error.PropertyReadOnly", "\(name) is read-only")]
            }
            let value = call.body[2].unwrapped
            guard value.signature == declared.type else {
                return [error("org.freedesktop.DBus.Error.InvalidArgs", "\(name) takes \(declared.type)")]
            }
            state.withLock { $0.client[name] = value }
            return [reply([])]
        case (Self.clientPath, GeoClue.clientInterface, "Start", ""):
            if let refusal = start() { return [error("org.freedesktop.DBus.Error.AccessDenied", refusal)] }
            return [reply([])]
        case (Self.clientPath, GeoClue.clientInterface, "Stop", ""):
            state.withLock { $0.client["Active"] = .boolean(false) }
            return [reply([])]
        default:
            return [
                error(
                    "org.freedesktop.DBus.Error.UnknownMethod",
                    "no \(call.interface ?? "").\(call.member ?? "") (\(call.signature)) at \(call.path ?? "")")
            ]
        }
    }

    /// `Start` as the behaviour says: why it is refused (without a desktop id too, as GeoClue does), or nil.
    private func start() -> String? {
        guard clientProperty("DesktopId") != .string("") else { return "no DesktopId set" }
        if case .refuse = behaviour { return Self.refusal }
        state.withLock { state in
            state.client["Active"] = .boolean(true)
            if case .fixAtOnce = behaviour { state.client["Location"] = .objectPath(Self.locationPath) }
        }
        return nil
    }

    /// Whether a location found late is found now (a started client has just read `Location` as `/`): it is
    /// set, and `LocationUpdated` is to follow the read's answer.
    private func findsLate() -> Bool {
        guard case .fixAfterStart = behaviour else { return false }
        return state.withLock { state in
            guard state.client["Active"] == .boolean(true), state.client["Location"] == .objectPath("/") else {
                return false
            }
            state.client["Location"] = .objectPath(Self.locationPath)
            return true
        }
    }

    /// The property `name` of `interface` on the object at `path`; nil when there is none.
    private func property(_ path: String?, _ interface: String?, _ name: String?) -> DBusValue? {
        guard let interface, let name else { return nil }
        switch (path, interface) {
        case (GeoClue.managerPath, GeoClue.managerInterface):
            return ["InUse": DBusValue.boolean(true), "AvailableAccuracyLevel": .uint32(8)][name]
        case (Self.clientPath, GeoClue.clientInterface):
            return clientProperty(name)
        case (Self.locationPath, GeoClue.locationInterface):
            guard case .objectPath(Self.locationPath) = clientProperty("Location") else { return nil }
            let (lat, lon, accuracy): (Double, Double, Double)
            switch behaviour {
            case .fixAtOnce(let a, let b, let c), .fixAfterStart(let a, let b, let c): (lat, lon, accuracy) = (a, b, c)
            case .refuse, .silent: return nil
            }
            let values: [String: DBusValue] = [
                "Latitude": .double(lat), "Longitude": .double(lon), "Accuracy": .double(accuracy),
                "Altitude": .double(-Double.greatestFiniteMagnitude), "Speed": .double(-1), "Heading": .double(-1),
                "Description": .string(""),
            ]
            return values[name]
        default:
            return nil
        }
    }
}
