import Foundation
import Testing

@testable import WeatherWire

@Suite("NATS client protocol: the parser")
struct NATSParserTests {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("INFO, PING, PONG, +OK and -ERR are read as operations")
    func controlOperations() throws {
        var parser = NATSParser()
        let operations = try parser.feed(
            bytes(
                "INFO {\"server_id\":\"x\",\"max_payload\":1048576}\r\nPING\r\npong\r\n+OK\r\n-ERR 'Stale Connection'\r\n"
            ))
        #expect(
            operations == [
                .info("{\"server_id\":\"x\",\"max_payload\":1048576}"), .ping, .pong, .ok, .error("Stale Connection"),
            ])
        #expect(parser.bufferedBytes == 0)
    }

    @Test("MSG with and without a reply subject")
    func messages() throws {
        var parser = NATSParser()
        let operations = try parser.feed(bytes("MSG a.b 7 5\r\nhello\r\nMSG a.c 8 _INBOX.x 0\r\n\r\n"))
        #expect(
            operations == [
                .message(NATSMessage(subject: "a.b", sid: "7", replyTo: nil, headers: nil, payload: bytes("hello"))),
                .message(NATSMessage(subject: "a.c", sid: "8", replyTo: "_INBOX.x", headers: nil, payload: [])),
            ])
    }

    @Test("HMSG carries headers, with a status line or without")
    func headerMessages() throws {
        var parser = NATSParser()
        let block = "NATS/1.0\r\nNats-Msg-Id: log-3\r\nX: a: b\r\n\r\n"
        let status = "NATS/1.0 503 No Responders\r\n\r\n"
        let operations = try parser.feed(
            bytes(
                "HMSG s 1 r \(block.utf8.count) \(block.utf8.count + 2)\r\n\(block)hi\r\n"
                    + "HMSG _INBOX.a 2 \(status.utf8.count) \(status.utf8.count)\r\n\(status)\r\n"))
        #expect(operations.count == 2)
        guard case .message(let first) = operations.first, case .message(let second) = operations.last else {
            Issue.record("expected two messages, got \(operations)")
            return
        }
        #expect(first.headers?["nats-msg-id"] == "log-3")
        #expect(first.headers?["X"] == "a: b")
        #expect(first.payload == bytes("hi"))
        #expect(first.replyTo == "r")
        #expect(second.headers?.status == 503)
        #expect(second.headers?.statusDescription == "No Responders")
        #expect(second.payload.isEmpty)
    }

    @Test("a frame split at every byte gives the same operations as one read")
    func splitFrames() throws {
        let block = "NATS/1.0\r\nA: 1\r\n\r\n"
        let stream = bytes(
            "INFO {}\r\nMSG x 1 3\r\nabc\r\nHMSG y 2 \(block.utf8.count) \(block.utf8.count + 4)\r\n\(block)wxyz\r\nPING\r\n"
        )
        var whole = NATSParser()
        let expected = try whole.feed(stream)
        #expect(expected.count == 4)
        var split = NATSParser()
        var got: [NATSServerOperation] = []
        for byte in stream { got += try split.feed([byte]) }
        #expect(got == expected)
        #expect(split.bufferedBytes == 0)
    }

    @Test("a payload may hold \\r\\n and the words of the protocol")
    func payloadIsOpaque() throws {
        var parser = NATSParser()
        let body = "PING\r\n-ERR 'x'\r\n"
        let operations = try parser.feed(bytes("MSG x 1 \(body.utf8.count)\r\n\(body)\r\n"))
        #expect(
            operations == [
                .message(NATSMessage(subject: "x", sid: "1", replyTo: nil, headers: nil, payload: bytes(body)))
            ])
    }

    @Test("a message larger than the limit is refused from its control line, before its bytes come")
    func hugePayloadRefused() {
        var parser = NATSParser(maxPayload: 1024)
        #expect(throws: NATSProtocolError.payloadTooLarge(4_000_000_000, limit: 1024)) {
            try parser.feed(bytes("MSG x 1 4000000000\r\n"))
        }
        #expect(parser.bufferedBytes == 0)
    }

    @Test("a control line past the limit without its end is refused, holding no more than the limit")
    func endlessLineRefused() throws {
        var parser = NATSParser(maxControlLine: 100)
        #expect(try parser.feed(bytes("INFO {" + String(repeating: "a", count: 90))).isEmpty)
        #expect(throws: NATSProtocolError.lineTooLong(100)) {
            try parser.feed(bytes(String(repeating: "a", count: 20)))
        }
        #expect(parser.bufferedBytes == 0)
    }

    @Test(
        "garbage is a clear error",
        arguments: [
            ("HELLO world\r\n", "nats_unknown_operation"),
            ("PING\n", "nats_malformed_frame"),
            ("MSG x\r\n", "nats_malformed_frame"),
            ("MSG x 1 abc\r\n", "nats_malformed_frame"),
            ("MSG x 1 -3\r\n", "nats_malformed_frame"),
            ("MSG x 1 3\r\nabcde\r\n", "nats_malformed_frame"),
            ("HMSG x 1 10 5\r\n", "nats_malformed_frame"),
            ("HMSG x 1 4 4\r\nHTTP\r\n", "nats_malformed_frame"),
            ("INFO nope\r\n", "nats_malformed_frame"),
        ])
    func garbage(input: String, kind: String) {
        var parser = NATSParser()
        do {
            let operations = try parser.feed(bytes(input))
            Issue.record("\(input.debugDescription) was read as \(operations)")
        } catch {
            #expect(error.kind == kind)
        }
    }

    @Test("bytes after a whole operation wait for the next read")
    func readAhead() throws {
        var parser = NATSParser()
        #expect(try parser.feed(bytes("PING\r\nMSG x 1 5\r\nhel")) == [.ping])
        #expect(parser.bufferedBytes == 3)
        #expect(
            try parser.feed(bytes("lo\r\n")) == [
                .message(NATSMessage(subject: "x", sid: "1", replyTo: nil, headers: nil, payload: bytes("hello")))
            ])
    }
}

@Suite("NATS client protocol: what the client sends")
struct NATSClientCommandTests {
    @Test("PUB, HPUB, SUB, UNSUB, CONNECT, PING and PONG are framed as the protocol says")
    func framing() {
        #expect(String(decoding: NATSClientCommand.ping.bytes, as: UTF8.self) == "PING\r\n")
        #expect(String(decoding: NATSClientCommand.pong.bytes, as: UTF8.self) == "PONG\r\n")
        #expect(
            String(decoding: NATSClientCommand.connect("{\"verbose\":false}").bytes, as: UTF8.self)
                == "CONNECT {\"verbose\":false}\r\n")
        #expect(
            String(decoding: NATSClientCommand.subscribe(subject: "_INBOX.a.*", sid: "1").bytes, as: UTF8.self)
                == "SUB _INBOX.a.* 1\r\n")
        #expect(String(decoding: NATSClientCommand.unsubscribe(sid: "1").bytes, as: UTF8.self) == "UNSUB 1\r\n")
        #expect(
            String(
                decoding: NATSClientCommand.publish(subject: "a", replyTo: nil, headers: nil, payload: Array("hi".utf8))
                    .bytes, as: UTF8.self) == "PUB a 2\r\nhi\r\n")
        let headers = NATSHeaders([("Nats-Msg-Id", "l-1")])
        let block = "NATS/1.0\r\nNats-Msg-Id: l-1\r\n\r\n"
        #expect(
            String(
                decoding: NATSClientCommand.publish(
                    subject: "a.b", replyTo: "_INBOX.x", headers: headers, payload: Array("body".utf8)
                ).bytes, as: UTF8.self)
                == "HPUB a.b _INBOX.x \(block.utf8.count) \(block.utf8.count + 4)\r\n\(block)body\r\n")
    }

    @Test("what the client frames, the parser reads back (headers survive the round trip)")
    func roundTrip() throws {
        let headers = NATSHeaders([("Nats-Msg-Id", "abc-7"), ("Weatherd-Type", "favorite.added")])
        let command = NATSClientCommand.publish(
            subject: "weatherd.abc", replyTo: "_INBOX.r", headers: headers, payload: Array("{\"seq\":7}".utf8))
        // A server delivers the same frame as HMSG with a sid after the subject.
        let sent = String(decoding: command.bytes, as: UTF8.self)
        let delivered = sent.replacingOccurrences(of: "HPUB weatherd.abc", with: "HMSG weatherd.abc 9")
        var parser = NATSParser()
        let operations = try parser.feed(Array(delivered.utf8))
        #expect(
            operations == [
                .message(
                    NATSMessage(
                        subject: "weatherd.abc", sid: "9", replyTo: "_INBOX.r", headers: headers,
                        payload: Array("{\"seq\":7}".utf8)))
            ])
    }

    @Test(
        "subjects with spaces, empty tokens or control characters are refused",
        arguments: [
            ("weatherd.abc", true), ("a", true), ("", false), ("a b", false), ("a..b", false), (".a", false),
            ("a.", false), ("a\r\nPUB", false),
        ])
    func subjects(subject: String, valid: Bool) {
        #expect(NATSClientCommand.isValidSubject(subject) == valid)
    }
}
