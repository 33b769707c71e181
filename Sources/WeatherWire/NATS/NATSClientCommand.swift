/// What a NATS client sends, framed as the protocol wants: one value per command, `bytes` to write.
package enum NATSClientCommand: Sendable, Equatable {
    /// `CONNECT {json}`: the options (the JSON as given).
    case connect(String)
    /// `PUB` or `HPUB`: a message to `subject`, answers to `replyTo`.
    case publish(subject: String, replyTo: String?, headers: NATSHeaders?, payload: [UInt8])
    /// `SUB <subject> <sid>`.
    case subscribe(subject: String, sid: String)
    /// `UNSUB <sid>`.
    case unsubscribe(sid: String)
    /// `PING`.
    case ping
    /// `PONG`.
    case pong

    /// The bytes on the wire.
    package var bytes: [UInt8] {
        switch self {
        case .connect(let json): return Array("CONNECT \(json)\r\n".utf8)
        case .subscribe(let subject, let sid): return Array("SUB \(subject) \(sid)\r\n".utf8)
        case .unsubscribe(let sid): return Array("UNSUB \(sid)\r\n".utf8)
        case .ping: return Array("PING\r\n".utf8)
        case .pong: return Array("PONG\r\n".utf8)
        case .publish(let subject, let replyTo, let headers, let payload):
            let reply = replyTo.map { " \($0)" } ?? ""
            guard let headers else {
                return Array("PUB \(subject)\(reply) \(payload.count)\r\n".utf8) + payload + [13, 10]
            }
            let block = headers.encoded
            return Array("HPUB \(subject)\(reply) \(block.count) \(block.count + payload.count)\r\n".utf8) + block
                + payload + [13, 10]
        }
    }

    /// Whether `subject` may be published to or subscribed with: not empty, no whitespace or control
    /// characters, no empty token.
    package static func isValidSubject(_ subject: String) -> Bool {
        !subject.isEmpty && !subject.hasPrefix(".") && !subject.hasSuffix(".") && !subject.contains("..")
            && subject.unicodeScalars.allSatisfy { $0.value > 32 && $0.value != 127 }
    }
}
