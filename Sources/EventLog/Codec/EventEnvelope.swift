import WeatherDomain

/// One committed line of the log, with its fields decoded and its `data` kept as bytes.
///
/// `data` stays encoded until someone needs it, so scanning the log (queries, verification,
/// catch-up) costs no JSON decoding of payloads.
package struct EventEnvelope: Sendable, Equatable {
    package var seq: Int64
    package var ts: Timestamp
    package var type: String
    package var v: Int
    package var cause: String
    package var corr: String?
    /// The canonical JSON bytes of the `data` object.
    package var data: [UInt8]
    package var chain: UInt32
    package var crc: UInt32
    /// The decoded event, when the envelope was just written by this process (which had it at hand);
    /// nil for one read from the log. Saves those who follow commits from decoding `data` again.
    package var event: DomainEvent?

    package init(
        seq: Int64, ts: Timestamp, type: String, v: Int, cause: String, corr: String?, data: [UInt8], chain: UInt32,
        crc: UInt32, event: DomainEvent? = nil
    ) {
        self.seq = seq
        self.ts = ts
        self.type = type
        self.v = v
        self.cause = cause
        self.corr = corr
        self.data = data
        self.chain = chain
        self.crc = crc
        self.event = event
    }

    /// Envelopes are equal when their logged fields are; `event` is only a decoded copy of `data`.
    package static func == (lhs: EventEnvelope, rhs: EventEnvelope) -> Bool {
        lhs.seq == rhs.seq && lhs.ts == rhs.ts && lhs.type == rhs.type && lhs.v == rhs.v && lhs.cause == rhs.cause
            && lhs.corr == rhs.corr && lhs.data == rhs.data && lhs.chain == rhs.chain && lhs.crc == rhs.crc
    }

    /// The decoded `data` object.
    package func decodedData(maxDepth: Int = 64) throws -> JSONValue { try JSONValue.parse(data, maxDepth: maxDepth) }

    /// The event this envelope holds: `event` when the writer had it at hand, else `data` decoded by
    /// `catalog` (upcasting older versions), so those who follow commits never decode an event twice.
    ///
    /// - Throws: `JSONParseError` when `data` is not JSON, `FieldError` when it does not match its schema.
    package func decodedEvent(catalog: EventCatalog = .standard) throws -> EventCatalog.Outcome {
        if let event { return .event(event) }
        return try catalog.decode(type: type, version: v, data: decodedData())
    }

    /// The envelope's fields as a JSON object (for `events/query` and `events/event`).
    package func json() throws -> JSONValue {
        var object: [String: JSONValue] = [
            "seq": .int(seq), "ts": .string(ts.description), "type": .string(type), "v": .int(Int64(v)),
            "cause": .string(cause), "data": try decodedData(),
            "chain": .string(CRC32C.hexString(chain)),
            "crc": .string(CRC32C.hexString(crc)),
        ]
        if let corr { object["corr"] = .string(corr) }
        return .object(object)
    }
}

/// An event on its way into the log: everything but the fields the writer assigns.
package struct NewEvent: Sendable, Equatable {
    package var type: String
    package var v: Int
    package var cause: String
    package var corr: String?
    /// The canonical JSON bytes of the `data` object.
    package var data: [UInt8]
    /// The domain event `data` encodes, when it was made from one.
    package var event: DomainEvent?

    package init(type: String, v: Int, cause: String, corr: String?, data: [UInt8]) {
        self.type = type
        self.v = v
        self.cause = cause
        self.corr = corr
        self.data = data
    }

    /// Events are equal when what they write is; `event` is only the value `data` was made from.
    package static func == (lhs: NewEvent, rhs: NewEvent) -> Bool {
        lhs.type == rhs.type && lhs.v == rhs.v && lhs.cause == rhs.cause && lhs.corr == rhs.corr
            && lhs.data == rhs.data
    }

    /// A domain event with its cause and correlation id.
    package init(_ event: DomainEvent, cause: String, corr: String?) {
        let kind = event.kind
        self.init(type: kind.type, v: kind.version, cause: cause, corr: corr, data: event.data.jsonBytes)
        self.event = event
    }
}
