import Synchronization
import WeatherEngine
import WeatherRuntime

/// One exchange with GeoClue on its own connection, which `abandon` ends from outside while a call waits.
final class GeoClueSession: Sendable {
    private let address: String
    private let uid: UInt32
    private let runtime: Runtime
    private struct State {
        var connection: DBusConnection?
        /// The client object, once GeoClue gave it and until it is stopped.
        var client: String?
        var abandoned = false
    }
    private let state = Mutex(State())

    init(address: String, uid: UInt32, runtime: Runtime) {
        self.address = address
        self.uid = uid
        self.runtime = runtime
    }

    /// Connects, asks, and stops the client: the fix, or why there is none.
    func run() async -> Result<ServiceFix, GeoClueError> {
        do throws(GeoClueError) {
            let connection: DBusConnection
            do throws(DBusError) {
                connection = try await DBusConnection.connect(address: address, uid: uid, runtime: runtime)
            } catch {
                throw GeoClueError(error, address: address)
            }
            let given = state.withLock { state in
                state.connection = connection
                return !state.abandoned
            }
            guard given else {
                connection.close()
                throw GeoClueError(DBusError.broken("given up"), address: address)
            }
            return .success(try await ask(connection))
        } catch {
            return .failure(error)
        }
    }

    private func ask(_ connection: DBusConnection) async throws(GeoClueError) -> ServiceFix {
        do throws(DBusError) {
            let reply = try await connection.call(
                destination: GeoClue.service, path: GeoClue.managerPath, interface: GeoClue.managerInterface,
                member: "GetClient", [])
            guard reply.count == 1, case .objectPath(let client) = reply[0] else {
                throw DBusError.broken("GetClient answered \(reply.map(\.signature).joined()), not an object path")
            }
            state.withLock { $0.client = client }
            let settings: [(String, DBusValue)] = [
                ("DesktopId", .string(GeoClue.desktopId)), ("RequestedAccuracyLevel", .uint32(GeoClue.cityAccuracy)),
            ]
            for (name, value) in settings {
                try await connection.setProperty(
                    destination: GeoClue.service, path: client, interface: GeoClue.clientInterface, name: name, value)
            }
            try await connection.addMatch(
                DBusConnection.signalRule(path: client, interface: GeoClue.clientInterface, member: "LocationUpdated"))
            _ = try await connection.call(
                destination: GeoClue.service, path: client, interface: GeoClue.clientInterface, member: "Start", [])
            let fix: Result<ServiceFix, DBusError>
            do throws(DBusError) {
                fix = .success(try await read(connection, client: client))
            } catch {
                fix = .failure(error)
            }
            await stop(connection, client: client)
            return try fix.get()
        } catch {
            throw GeoClueError(error, address: address)
        }
    }

    /// The client's location: its `Location` when GeoClue had one at once, else the one `LocationUpdated` names.
    private func read(_ connection: DBusConnection, client: String) async throws(DBusError) -> ServiceFix {
        var path = try await connection.property(
            destination: GeoClue.service, path: client, interface: GeoClue.clientInterface, name: "Location"
        ).text
        if path == nil || path == "/" {
            let updated = try await connection.nextSignal { message in
                message.path == client && message.interface == GeoClue.clientInterface
                    && message.member == "LocationUpdated"
            }
            guard updated.body.count == 2, case .objectPath(let new) = updated.body[1] else {
                throw .broken("LocationUpdated carried \(updated.signature), not two object paths")
            }
            path = new
        }
        guard let location = path, location != "/" else { throw .broken("GeoClue updated the location to none") }
        func number(_ name: String) async throws(DBusError) -> Double {
            let value = try await connection.property(
                destination: GeoClue.service, path: location, interface: GeoClue.locationInterface, name: name)
            guard let number = value.doubleValue, number.isFinite else {
                throw .broken("the location's \(name) is \(value.signature), not a number")
            }
            return number
        }
        let lat = try await number("Latitude")
        let lon = try await number("Longitude")
        let accuracy = try await number("Accuracy")
        return ServiceFix(lat: lat, lon: lon, accuracyM: accuracy > 0 ? accuracy : nil)
    }

    /// Stops the client, waiting for GeoClue's answer. A failure to stop changes nothing: the connection is
    /// closed next, and GeoClue ends the clients of a connection that closes.
    private func stop(_ connection: DBusConnection, client: String) async {
        state.withLock { $0.client = nil }
        do throws(DBusError) {
            _ = try await connection.call(
                destination: GeoClue.service, path: client, interface: GeoClue.clientInterface, member: "Stop", [])
        } catch {
            return
        }
    }

    /// Closes the connection of a finished exchange.
    func close() {
        state.withLock { $0.connection }?.close()
    }

    /// Gives the exchange up while a call or the wait for a fix may be in progress: a client already started is
    /// told to `Stop` (without waiting for the answer, which the waiting call would read), and the connection
    /// is shut down, which ends that call.
    func abandon() {
        let (connection, client) = state.withLock { state in
            state.abandoned = true
            defer { state.client = nil }
            return (state.connection, state.client)
        }
        guard let connection else { return }
        if let client {
            // Not waited for: the connection is shut down next, and GeoClue ends the clients of a connection
            // that closes.
            connection.send(
                destination: GeoClue.service, path: client, interface: GeoClue.clientInterface, member: "Stop")
        }
        connection.close()
    }
}
