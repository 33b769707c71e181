import Foundation
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherWire

/// JetStream's JSON API over a NATS connection (request and reply on `$JS.API.…`): what shipping needs of a
/// stream. Works on the `nats-server` Debian ships (2.9): it uses `STREAM.INFO`, `STREAM.CREATE` and
/// `STREAM.MSG.GET`, not the direct-get API a stream must opt into.
package struct JetStream: Sendable {
    /// A message as the stream holds it.
    package struct StoredMessage: Sendable, Equatable {
        package var subject: String
        /// Its sequence in the stream.
        package var streamSeq: Int64
        package var headers: NATSHeaders?
        package var data: [UInt8]
    }

    /// What a publish's acknowledgement says (`PubAck`).
    package struct PubAck: Sendable, Equatable {
        package var stream: String
        /// Where the stream stored it.
        package var streamSeq: Int64
        /// Whether the stream already held a message with its `Nats-Msg-Id` (it stored nothing new).
        package var duplicate: Bool
    }

    let connection: NATSConnection

    package init(_ connection: NATSConnection) { self.connection = connection }

    /// Connects to the server at `url` and checks that it has JetStream on.
    ///
    /// - Throws: `NATSError` (`nats_unreachable`, `nats_jetstream_off`, …).
    package static func connect(to url: NATSURL, credentials: NATSCredentials?, runtime: Runtime)
        async throws(NATSError) -> JetStream
    {
        let connection = try await NATSConnection.connect(to: url.endpoint, credentials: credentials, runtime: runtime)
        guard connection.serverInfo?.jetStream == true else {
            connection.close()
            throw .jetStreamOff(url.description)
        }
        return JetStream(connection)
    }

    /// Closes its connection.
    package func close() { connection.close() }

    /// The stream's configured subjects; nil when there is no such stream.
    ///
    /// - Throws: `NATSError`.
    package func streamSubjects(_ stream: String) async throws(NATSError) -> [String]? {
        let answer = try await call("$JS.API.STREAM.INFO.\(stream)", [:], absentCode: 10059)
        guard let answer else { return nil }
        return answer["config"]?["subjects"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// Creates a stream on `subjects`: file storage, limits retention (nothing removed unless the operator sets
    /// limits), one replica unless told, a two-minute window for `Nats-Msg-Id` duplicates.
    ///
    /// - Throws: `NATSError`.
    package func createStream(_ stream: String, subjects: [String], replicas: Int = 1) async throws(NATSError) {
        let config: [String: JSONValue] = [
            "name": .string(stream), "subjects": .array(subjects.map { .string($0) }), "retention": "limits",
            "storage": "file", "num_replicas": .int(Int64(replicas)), "discard": "old",
            "duplicate_window": .int(120_000_000_000),
        ]
        _ = try await call("$JS.API.STREAM.CREATE.\(stream)", config, absentCode: nil)
    }

    /// The last message the stream holds on `subject`; nil when it holds none.
    ///
    /// - Throws: `NATSError`.
    package func lastMessage(_ stream: String, subject: String) async throws(NATSError) -> StoredMessage? {
        try await message(stream, ["last_by_subj": .string(subject)])
    }

    /// The first message on `subject` at or after stream sequence `seq`; nil when there is none.
    ///
    /// - Throws: `NATSError`.
    package func nextMessage(_ stream: String, subject: String, from seq: Int64) async throws(NATSError)
        -> StoredMessage?
    {
        try await message(stream, ["seq": .int(seq), "next_by_subj": .string(subject)])
    }

    private func message(_ stream: String, _ request: [String: JSONValue]) async throws(NATSError) -> StoredMessage? {
        guard let answer = try await call("$JS.API.STREAM.MSG.GET.\(stream)", request, absentCode: 10037) else {
            return nil
        }
        guard let message = answer["message"], let subject = message["subject"]?.stringValue,
            let seq = message["seq"]?.intValue
        else { throw .unexpectedAnswer("JetStream's message answer lacks its subject or seq") }
        let data = try Self.base64(message["data"]?.stringValue ?? "")
        let headers: NATSHeaders?
        if let text = message["hdrs"]?.stringValue, !text.isEmpty {
            do {
                headers = try NATSHeaders(parsing: try Self.base64(text))
            } catch let error as NATSProtocolError {
                throw .protocolError(error)
            } catch {
                throw .unexpectedAnswer("\(error)")
            }
        } else {
            headers = nil
        }
        return StoredMessage(subject: subject, streamSeq: seq, headers: headers, data: data)
    }

    private static func base64(_ text: String) throws(NATSError) -> [UInt8] {
        guard let data = Data(base64Encoded: text) else { throw .unexpectedAnswer("JetStream sent bad base64") }
        return Array(data)
    }

    /// Reads a publish's acknowledgement.
    ///
    /// - Throws: `NATSError.jetStream` for an error answer (`10071`: wrong last sequence), or one that is not a
    ///   `PubAck`.
    package static func pubAck(_ message: NATSMessage) throws(NATSError) -> PubAck {
        let answer = try json(message)
        guard let stream = answer["stream"]?.stringValue, let seq = answer["seq"]?.intValue else {
            throw .unexpectedAnswer("a publish's answer is not a PubAck")
        }
        return PubAck(stream: stream, streamSeq: seq, duplicate: answer["duplicate"]?.boolValue ?? false)
    }

    /// Sends `request` to `subject`; nil when JetStream answers with `absentCode` (not found).
    private func call(_ subject: String, _ request: [String: JSONValue], absentCode: Int?) async throws(NATSError)
        -> JSONValue?
    {
        let payload = request.isEmpty ? [] : Array(JSONValue.object(request).jsonString.utf8)
        do {
            return try Self.json(try await connection.call(subject, payload: payload))
        } catch  where absentCode != nil && error.jetStreamCode == absentCode {
            return nil
        }
    }

    /// The answer's JSON, or its `error` as a `NATSError`.
    private static func json(_ message: NATSMessage) throws(NATSError) -> JSONValue {
        let value: JSONValue
        do {
            value = try JSONValue.parse(message.payload)
        } catch {
            throw .unexpectedAnswer("JetStream's answer is not JSON: \(error)")
        }
        if let error = value["error"] {
            throw .jetStream(
                code: Int(error["code"]?.intValue ?? 0), errCode: error["err_code"]?.intValue.map { Int($0) },
                description: error["description"]?.stringValue ?? "an error")
        }
        return value
    }
}
