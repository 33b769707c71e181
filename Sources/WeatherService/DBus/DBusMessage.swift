/// A D-Bus message: its header (type, flags, serial and header fields) and body (D-Bus specification,
/// "Message Protocol"). weatherd writes little-endian messages and reads either byte order.
package struct DBusMessage: Sendable, Equatable {
    package enum Kind: UInt8, Sendable {
        case methodCall = 1, methodReturn, error, signal
    }

    package var kind: Kind
    /// 0x1: no reply expected.
    package var flags: UInt8 = 0
    package var serial: UInt32
    package var path: String?
    package var interface: String?
    package var member: String?
    package var errorName: String?
    package var replySerial: UInt32?
    package var destination: String?
    package var sender: String?
    package var body: [DBusValue] = []

    /// The most bytes a message may take (the specification's 128 MiB); weatherd's are far smaller.
    package static let maxLength = 1 << 27

    /// A method call.
    package static func call(
        serial: UInt32, destination: String, path: String, interface: String, member: String, body: [DBusValue] = []
    ) -> DBusMessage {
        DBusMessage(
            kind: .methodCall, serial: serial, path: path, interface: interface, member: member,
            destination: destination, body: body)
    }

    package init(
        kind: Kind, flags: UInt8 = 0, serial: UInt32, path: String? = nil, interface: String? = nil,
        member: String? = nil, errorName: String? = nil, replySerial: UInt32? = nil, destination: String? = nil,
        sender: String? = nil, body: [DBusValue] = []
    ) {
        self.kind = kind
        self.flags = flags
        self.serial = serial
        self.path = path
        self.interface = interface
        self.member = member
        self.errorName = errorName
        self.replySerial = replySerial
        self.destination = destination
        self.sender = sender
        self.body = body
    }

    /// The body's signature.
    package var signature: String { body.map(\.signature).joined() }

    /// The message's bytes, little-endian.
    package var bytes: [UInt8] {
        var fields: [DBusValue] = []
        func field(_ code: UInt8, _ value: DBusValue?) {
            if let value { fields.append(.structure([.byte(code), .variant(value)])) }
        }
        field(1, path.map(DBusValue.objectPath))
        field(2, interface.map(DBusValue.string))
        field(3, member.map(DBusValue.string))
        field(4, errorName.map(DBusValue.string))
        field(5, replySerial.map(DBusValue.uint32))
        field(6, destination.map(DBusValue.string))
        field(7, sender.map(DBusValue.string))
        field(8, body.isEmpty ? nil : .signature(signature))
        var body = DBusWriter()
        for value in self.body { body.write(value) }
        var header = DBusWriter()
        for value: DBusValue in [
            .byte(UInt8(ascii: "l")), .byte(kind.rawValue), .byte(flags), .byte(1), .uint32(UInt32(body.bytes.count)),
            .uint32(serial), .array("(yv)", fields),
        ] {
            header.write(value)
        }
        header.pad(to: 8)
        return header.bytes + body.bytes
    }

    /// How many bytes the message starting `prefix` takes, once its first 16 bytes are there; nil before.
    package static func length(of prefix: ArraySlice<UInt8>) throws(DBusWireError) -> Int? {
        guard prefix.count >= 16 else { return nil }
        let start = prefix.startIndex
        let bigEndian: Bool
        switch prefix[start] {
        case UInt8(ascii: "l"): bigEndian = false
        case UInt8(ascii: "B"): bigEndian = true
        default: throw DBusWireError("a message in neither byte order")
        }
        func number(_ at: Int) -> Int {
            let raw = prefix[start + at..<start + at + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            return Int(bigEndian ? raw : raw.byteSwapped)
        }
        let fields = number(12)
        let total = (16 + fields + 7) / 8 * 8 + number(4)
        guard fields <= maxLength, total <= maxLength else { throw DBusWireError("a message of \(total) bytes") }
        return total
    }

    /// Reads one whole message.
    package init(bytes: [UInt8]) throws(DBusWireError) {
        guard try Self.length(of: bytes[...]) == bytes.count else {
            throw DBusWireError("a message whose length is not its header's")
        }
        var reader = DBusReader(bytes, bigEndian: bytes[0] == UInt8(ascii: "B"), offset: 1)
        guard case .byte(let rawKind) = try reader.read("y"), let kind = Kind(rawValue: rawKind),
            case .byte(let flags) = try reader.read("y"), case .byte(1) = try reader.read("y"),
            case .uint32 = try reader.read("u"), case .uint32(let serial) = try reader.read("u"), serial != 0,
            case .array(_, let fields) = try reader.read("a(yv)")
        else { throw DBusWireError("a header weatherd cannot read") }
        self.init(kind: kind, flags: flags, serial: serial)
        var signature = ""
        for case .structure(let pair) in fields {
            guard pair.count == 2, case .byte(let code) = pair[0], case .variant(let value) = pair[1] else { continue }
            switch code {
            case 1: path = value.text
            case 2: interface = value.text
            case 3: member = value.text
            case 4: errorName = value.text
            case 5: replySerial = value.uint32Value
            case 6: destination = value.text
            case 7: sender = value.text
            case 8: signature = value.text ?? ""
            default: break  // a field this version does not know is ignored, as the specification asks
            }
        }
        try reader.skip(to: 8)
        guard let types = DBusSignature.split(signature) else { throw DBusWireError("a bad body signature") }
        for type in types { body.append(try reader.read(type)) }
        guard reader.offset == bytes.count else { throw DBusWireError("bytes after the body") }
    }
}

/// The SASL exchange that opens a connection to a bus (D-Bus specification, "Authentication Protocol"):
/// the `EXTERNAL` mechanism, which proves the user by the socket's credentials.
package enum DBusAuth {
    /// What the client sends first: a NUL byte, then `AUTH EXTERNAL` with its uid in hex-encoded ASCII.
    package static func start(uid: UInt32) -> [UInt8] {
        let hex = String(uid).utf8.map { byte in
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
        }.joined()
        return [0] + Array("AUTH EXTERNAL \(hex)\r\n".utf8)
    }

    /// What the client sends once the server said `OK`: then messages follow.
    package static let begin = Array("BEGIN\r\n".utf8)

    /// The server's guid from its `OK <guid>` line; nil for a refusal (`REJECTED …`) or anything else.
    package static func accepted(_ line: String) -> String? {
        let words = line.split(separator: " ")
        guard words.count == 2, words[0] == "OK" else { return nil }
        return String(words[1])
    }
}
