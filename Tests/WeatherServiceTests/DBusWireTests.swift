import Testing
import WeatherService

@Suite("D-Bus wire format: marshalling, messages and the EXTERNAL handshake")
struct DBusWireTests {
    /// `text` and its NUL.
    static func z(_ text: String) -> [UInt8] { Array(text.utf8) + [0] }

    /// A little-endian UInt32.
    static func u(_ value: UInt32) -> [UInt8] { [0, 8, 16, 24].map { UInt8((value >> $0) & 0xFF) } }

    @Test("Hello, byte for byte as the bus expects it")
    func hello() throws {
        let message = DBusMessage.call(
            serial: 1, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus", member: "Hello")
        var expected: [UInt8] = Array("l".utf8) + [1, 0, 1] + Self.u(0) + Self.u(1) + Self.u(109)
        expected += [1, 1] + Self.z("o") + Self.u(21) + Self.z("/org/freedesktop/DBus") + [0, 0]
        expected += [2, 1] + Self.z("s") + Self.u(20) + Self.z("org.freedesktop.DBus") + [0, 0, 0]
        expected += [3, 1] + Self.z("s") + Self.u(5) + Self.z("Hello") + [0, 0]
        expected += [6, 1] + Self.z("s") + Self.u(20) + Self.z("org.freedesktop.DBus") + [0, 0, 0]
        #expect(expected.count == 128)
        #expect(message.bytes == expected)
        #expect(try DBusMessage(bytes: expected) == message)
        #expect(try DBusMessage.length(of: expected[..<16]) == 128)
        #expect(try DBusMessage.length(of: expected[..<15]) == nil)
    }

    @Test("Notify's arguments survive the round trip with their signature")
    func notify() throws {
        let body: [DBusValue] = [
            .string("weatherd"), .uint32(7), .string("weather-storm"), .string("Storm warning"),
            .string("Berlin: gusts to 90 km/h\nuntil 18:00"), .array("s", []),
            .vardict([("urgency", .byte(2)), ("category", .string("weather"))]), .int32(-1),
        ]
        let message = DBusMessage.call(
            serial: 42, destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
            interface: "org.freedesktop.Notifications", member: "Notify", body: body)
        #expect(message.signature == "susssasa{sv}i")
        let bytes = message.bytes
        #expect(bytes.count % 4 == 0)
        let read = try DBusMessage(bytes: bytes)
        #expect(read == message)
        #expect(read.body[6] == .vardict([("urgency", .byte(2)), ("category", .string("weather"))]))
    }

    @Test("a big-endian reply is read as well")
    func bigEndian() throws {
        // A method return to serial 5 from :1.7 with the body `u` 9, as a big-endian peer would send it.
        func be(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
        var bytes: [UInt8] = Array("B".utf8) + [2, 0, 1] + be(4) + be(3) + be(31)
        bytes += [5, 1] + Self.z("u") + be(5)
        bytes += [7, 1] + Self.z("s") + be(4) + Self.z(":1.7") + [0, 0, 0]
        bytes += [8, 1] + Self.z("g") + [1] + Self.z("u")
        bytes += [0] + be(9)
        let message = try DBusMessage(bytes: bytes)
        #expect(message.kind == .methodReturn)
        #expect(message.serial == 3)
        #expect(message.replySerial == 5)
        #expect(message.sender == ":1.7")
        #expect(message.body == [.uint32(9)])
    }

    @Test("malformed messages are refused with a reason, never read past their end")
    func malformed() throws {
        let good = DBusMessage(kind: .methodReturn, serial: 2, replySerial: 1, body: [.string("ok"), .boolean(true)])
            .bytes
        var badBoolean = good
        badBoolean[badBoolean.count - 4] = 2
        var noNul = good
        noNul[good.count - 9] = UInt8(ascii: "x")
        var zeroSerial = good
        zeroSerial[8] = 0
        for bytes in [Array(good.dropLast()), badBoolean, noNul, zeroSerial, Array("x".utf8) + good.dropFirst()] {
            #expect(throws: DBusWireError.self) { try DBusMessage(bytes: bytes) }
        }
        var reader = DBusReader(DBusWriter.of(.array("u", [.uint32(1)])) + [], bigEndian: false)
        #expect(try reader.read("au") == .array("u", [.uint32(1)]))
        var overrun = DBusReader(Self.u(64) + Self.u(1), bigEndian: false)
        #expect(throws: DBusWireError.self) { try overrun.read("au") }
    }

    @Test("signatures split into complete types; bad ones are refused")
    func signatures() {
        #expect(DBusSignature.split("susssasa{sv}i") == ["s", "u", "s", "s", "s", "as", "a{sv}", "i"])
        #expect(DBusSignature.split("a(yv)") == ["a(yv)"])
        for bad in ["a", "(", "{s}", "{sss}", "()", "z"] { #expect(DBusSignature.split(bad) == nil, "\(bad)") }
    }

    @Test("EXTERNAL: a NUL, the uid in hex-encoded ASCII; OK names the guid, anything else refuses")
    func auth() {
        #expect(DBusAuth.start(uid: 1000) == [0] + Array("AUTH EXTERNAL 31303030\r\n".utf8))
        #expect(DBusAuth.start(uid: 0) == [0] + Array("AUTH EXTERNAL 30\r\n".utf8))
        #expect(DBusAuth.accepted("OK 1234deadbeef5678") == "1234deadbeef5678")
        #expect(DBusAuth.accepted("REJECTED EXTERNAL") == nil)
        #expect(DBusAuth.begin == Array("BEGIN\r\n".utf8))
    }
}

extension DBusWriter {
    /// The bytes of one value marshalled from offset 0.
    static func of(_ value: DBusValue) -> [UInt8] {
        var writer = DBusWriter()
        writer.write(value)
        return writer.bytes
    }
}
