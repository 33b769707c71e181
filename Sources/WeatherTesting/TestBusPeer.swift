import WeatherRuntime
import WeatherService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the tests' services on a real message bus share (the notification server, GeoClue): connecting as any
/// client does and owning a name, then answering the calls that come.
package enum TestBusPeer {
    /// Connects to the bus at `address` (the `EXTERNAL` handshake, `Hello`) and takes `name` (`RequestName`,
    /// not queued): the socket, the unique name the bus gave it, and what was read past the answer.
    ///
    /// - Throws: `DBusError` when the bus cannot be reached, refuses the handshake, or gives the name to
    ///   another connection.
    package static func connect(address: String, owning name: String) async throws(DBusError) -> (
        fd: Int32, uniqueName: String, framer: DBusFramer
    ) {
        let socket = try DBusConnection.socket(of: address)
        let result = await onOwnThread(named: "test-bus-peer-connect") {
            () -> Result<(Int32, String, DBusFramer), DBusError> in
            let fd: Int32
            do throws(DBusError) {
                fd = try DBusConnection.open(socket)
            } catch {
                return .failure(error)
            }
            var framer = DBusFramer()
            do throws(DBusError) {
                let unique = try DBusConnection.handshake(fd, uid: getuid(), &framer)
                // Flag 4: do not queue; the answer 1 means this connection is the name's primary owner.
                let request = DBusMessage.call(
                    serial: 2, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                    interface: "org.freedesktop.DBus", member: "RequestName", body: [.string(name), .uint32(4)])
                try DBusConnection.send(fd, request.bytes)
                let owner = try DBusConnection.receiveReply(fd, to: 2, &framer).body.first?.uint32Value
                guard owner == 1 else { throw .refused("RequestName answered \(owner.map(String.init) ?? "nothing")") }
                return .success((fd, unique, framer))
            } catch {
                close(fd)
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Answers the method calls that come on `fd` until it ends or breaks: `answer` gives what to send back
    /// (the reply, and signals), counting the serial on from the handshake's. A call that asked for no reply
    /// (flag 0x1) is answered only with the signals.
    package static func serve(
        _ fd: Int32, _ start: DBusFramer, answer: (DBusMessage, inout UInt32) -> [DBusMessage]
    ) {
        var framer = start
        var serial: UInt32 = 2
        while true {
            let next: DBusMessage?
            do {
                next = try framer.message()
            } catch {
                return
            }
            guard let call = next else {
                do throws(DBusError) {
                    try DBusConnection.fill(fd, &framer, during: "")
                } catch {
                    return
                }
                continue
            }
            guard call.kind == .methodCall else { continue }
            let noReply = call.flags & 1 != 0
            let messages = answer(call, &serial).filter { !noReply || $0.replySerial == nil }
            for message in messages {
                Descriptor.writeAll(fd, message.bytes, socket: true)
            }
        }
    }

    /// No SIGPIPE when the bus has gone: the write fails instead.
    private static var sendFlags: Int32 {
        #if os(Linux)
            Int32(MSG_NOSIGNAL)
        #else
            0
        #endif
    }
}
