/// Cuts the bytes a D-Bus peer sends into what they carry: first the handshake's `\r\n`-ended lines, then
/// whole messages. Bytes past what was asked for stay for the next ask, so nothing read ahead is lost.
///
/// Both ends of weatherd's D-Bus use it: the connection (`DBusConnection`) and the test session bus.
package struct DBusFramer: Sendable {
    private var buffer: [UInt8] = []

    /// The longest handshake line it accepts.
    package static let maxLineLength = 16 * 1024

    package init() {}

    /// Whether no bytes wait.
    package var isEmpty: Bool { buffer.isEmpty }

    /// Adds bytes read from the peer.
    package mutating func append(_ bytes: some Sequence<UInt8>) { buffer.append(contentsOf: bytes) }

    /// Takes the first byte (the client's NUL before its `AUTH`); nil when none waits.
    package mutating func firstByte() -> UInt8? { buffer.isEmpty ? nil : buffer.removeFirst() }

    /// The next handshake line without its `\r\n`; nil until a whole one is there.
    ///
    /// - Throws: `DBusWireError` when more than `maxLineLength` bytes came without a line's end.
    package mutating func line() throws(DBusWireError) -> String? {
        guard let end = buffer.firstIndex(of: UInt8(ascii: "\n")) else {
            guard buffer.count <= Self.maxLineLength else { throw DBusWireError("a handshake line past 16 KiB") }
            return nil
        }
        let line = buffer[..<end].filter { $0 != UInt8(ascii: "\r") }
        buffer.removeFirst(end + 1)
        return String(decoding: line, as: UTF8.self)
    }

    /// The next whole message; nil until all its bytes are there.
    ///
    /// - Throws: `DBusWireError` for bytes that are not a D-Bus message.
    package mutating func message() throws(DBusWireError) -> DBusMessage? {
        guard let length = try DBusMessage.length(of: buffer[...]), buffer.count >= length else { return nil }
        let message = try DBusMessage(bytes: Array(buffer[..<length]))
        buffer.removeFirst(length)
        return message
    }
}
