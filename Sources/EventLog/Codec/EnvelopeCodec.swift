import WeatherDomain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Builds and reads log lines byte for byte (the format Events/README.md describes).
///
/// A line is `{"seq":…,"ts":"…","type":"…","v":…,"cause":"…"[,"corr":"…"],"data":{…},"chain":"…","crc":"…"}`.
/// It is assembled as bytes rather than by a generic encoder, so the key order and the bytes the
/// checksums cover are the same on every platform.
package enum EnvelopeCodec {
    /// The length of `,"chain":"xxxxxxxx","crc":"xxxxxxxx"}` that ends every line.
    static let trailerLength = 37
    /// The length of `,"crc":"xxxxxxxx"}`.
    static let crcTrailerLength = 18

    /// Appends one encoded line (with its newline) to `buffer` and returns its chain and crc.
    package static func encode(
        seq: Int64, ts: Timestamp, event: NewEvent, previousChain: UInt32, into buffer: inout [UInt8]
    ) -> (chain: UInt32, crc: UInt32) {
        encode(seq: seq, tsBytes: ts.rfc3339Bytes, event: event, previousChain: previousChain, into: &buffer)
    }

    /// `encode` with the `ts` already formatted (`Timestamp.rfc3339Bytes`), for a batch whose lines share it.
    static func encode(
        seq: Int64, tsBytes: [UInt8], event: NewEvent, previousChain: UInt32, into buffer: inout [UInt8]
    ) -> (chain: UInt32, crc: UInt32) {
        let start = buffer.count
        appendHead(
            seq: seq, tsBytes: tsBytes, type: event.type, v: event.v, cause: event.cause, corr: event.corr,
            data: event.data, to: &buffer)
        let chain = buffer.withUnsafeBytes { all in
            CRC32C.checksum(
                UnsafeRawBufferPointer(rebasing: all[start...]),
                continuing: CRC32C.checksumOfHex(previousChain))
        }
        return (chain, appendTrailer(chain: chain, lineStart: start, to: &buffer))
    }

    /// Appends the line of `envelope` with its `data` replaced by `data` (its payload stripped by compaction),
    /// keeping its stated `chain` and computing a new `crc` over the new bytes; returns the crc.
    package static func encodeStripped(_ envelope: EventEnvelope, data: [UInt8], into buffer: inout [UInt8]) -> UInt32 {
        let start = buffer.count
        appendHead(
            seq: envelope.seq, tsBytes: envelope.ts.rfc3339Bytes, type: envelope.type, v: envelope.v,
            cause: envelope.cause, corr: envelope.corr, data: data, to: &buffer)
        return appendTrailer(chain: envelope.chain, lineStart: start, to: &buffer)
    }

    /// Appends B, the part of a line the chain covers: every field up to and including `data`.
    private static func appendHead(
        seq: Int64, tsBytes: [UInt8], type: String, v: Int, cause: String, corr: String?, data: [UInt8],
        to buffer: inout [UInt8]
    ) {
        buffer.append(contentsOf: #"{"seq":"#.utf8)
        buffer.append(contentsOf: String(seq).utf8)
        buffer.append(contentsOf: #","ts":""#.utf8)
        buffer.append(contentsOf: tsBytes)
        buffer.append(contentsOf: #"","type":"#.utf8)
        appendJSONString(type, to: &buffer)
        buffer.append(contentsOf: #","v":"#.utf8)
        buffer.append(contentsOf: String(v).utf8)
        buffer.append(contentsOf: #","cause":"#.utf8)
        appendJSONString(cause, to: &buffer)
        if let corr {
            buffer.append(contentsOf: #","corr":"#.utf8)
            appendJSONString(corr, to: &buffer)
        }
        buffer.append(contentsOf: #","data":"#.utf8)
        buffer.append(contentsOf: data)
    }

    /// Appends `,"chain":"…","crc":"…"}` and the newline to the line that began at `lineStart`; returns the crc.
    private static func appendTrailer(chain: UInt32, lineStart: Int, to buffer: inout [UInt8]) -> UInt32 {
        buffer.append(contentsOf: #","chain":""#.utf8)
        CRC32C.appendHex(chain, to: &buffer)
        buffer.append(UInt8(ascii: "\""))
        let crc = buffer.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[lineStart...])) }
        buffer.append(contentsOf: #","crc":""#.utf8)
        CRC32C.appendHex(crc, to: &buffer)
        buffer.append(contentsOf: "\"}\n".utf8)
        return crc
    }

    /// Whether a line (without its newline) carries a `crc` that matches its bytes.
    ///
    /// Used after a damaged line to decide whether any intact line follows it.
    package static func hasValidCRC(_ line: UnsafeRawBufferPointer) -> Bool {
        guard line.count > trailerLength, let stated = CRC32C.parseHex(line, at: line.count - 10) else { return false }
        return stated == CRC32C.checksum(UnsafeRawBufferPointer(rebasing: line[..<(line.count - crcTrailerLength)]))
    }

    /// Whether a line (without its newline) has the shape of a log line: it begins with `{"seq":`, ends in
    /// `,"chain":"…","crc":"…"}` with 8 hex digits each, and holds no zero byte.
    ///
    /// Such a line is a complete write: when its crc, chain or seq does not hold it is damage, never the
    /// trace of an interrupted write (those leave a cut line, zeros or garbage).
    package static func isWellFormed(_ line: UnsafeRawBufferPointer) -> Bool {
        let count = line.count
        guard count > trailerLength + 7, matches(line, at: 0, #"{"seq":"#) else { return false }
        let chainAt = count - trailerLength
        guard matches(line, at: chainAt, #","chain":""#), matches(line, at: chainAt + 18, #"""#),
            matches(line, at: count - crcTrailerLength, #","crc":""#), matches(line, at: count - 2, #""}"#),
            CRC32C.parseHex(line, at: chainAt + 10) != nil, CRC32C.parseHex(line, at: count - 10) != nil,
            let base = line.baseAddress
        else { return false }
        return memchr(base, 0, count) == nil
    }

    /// Whether the first line of a file (or the whole file, when it has no newline) shows it is not a log:
    /// it is text (UTF-8 without control characters other than tab and carriage return) that neither begins
    /// with `{"seq":` nor is a beginning of it.
    ///
    /// Zeros or binary garbage are not foreign: they are what an interrupted first write can leave.
    package static func isForeign(_ line: UnsafeRawBufferPointer) -> Bool {
        guard !line.isEmpty else { return false }
        let prefix: StaticString = #"{"seq":"#
        let compared = min(line.count, prefix.utf8CodeUnitCount)
        if matches(UnsafeRawBufferPointer(rebasing: line[..<compared]), at: 0, prefix, length: compared) {
            return false
        }
        for byte in line where byte < 0x20 && byte != 0x09 && byte != 0x0D { return false }
        return String(validating: line, as: UTF8.self) != nil
    }

    /// Decodes and checks one line (without its newline) whose predecessor's chain is `previousChain`.
    ///
    /// - Parameter allowStripped: the line is in a compacted segment, so when its chain does not hold but its
    ///   `data` has a `compacted` member (its payload was stripped), its crc alone vouches for its bytes and its
    ///   stated chain is taken as is: the next intact line's chain, or the manifest, proves it.
    package static func decode(
        _ line: UnsafeRawBufferPointer, previousChain: UInt32, allowStripped: Bool = false
    ) throws(LineProblem) -> EventEnvelope {
        let count = line.count
        guard count > trailerLength + 2, line[0] == UInt8(ascii: "{") else {
            throw LineProblem(.badJSON, "not a log envelope")
        }
        let chainAt = count - trailerLength
        guard matches(line, at: chainAt, #","chain":""#), matches(line, at: chainAt + 18, #"""#),
            matches(line, at: count - crcTrailerLength, #","crc":""#),
            matches(line, at: count - 2, #""}"#), let statedChain = CRC32C.parseHex(line, at: chainAt + 10),
            let statedCRC = CRC32C.parseHex(line, at: count - 10)
        else { throw LineProblem(.badJSON, "the line does not end in chain and crc fields") }
        let body = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: line[..<chainAt]))
        let crc = CRC32C.checksum(
            UnsafeRawBufferPointer(rebasing: line[chainAt..<(count - crcTrailerLength)]), continuing: body)
        guard crc == statedCRC else { throw LineProblem(.badCRC, "crc mismatch") }
        var scanner = FieldScanner(line: line, end: chainAt)
        let seq = try scanner.integerField(#"{"seq":"#)
        let tsText = try scanner.stringField(#","ts":"#)
        guard let ts = Timestamp(rfc3339: tsText) else { throw LineProblem(.badJSON, "ts is not an RFC 3339 time") }
        let type = try scanner.stringField(#","type":"#)
        let v = try scanner.integerField(#","v":"#)
        let cause = try scanner.stringField(#","cause":"#)
        let corr = scanner.peek(#","corr":"#) ? try scanner.stringField(#","corr":"#) : nil
        let data = try scanner.rest(#","data":"#)
        guard data.first == UInt8(ascii: "{") else { throw LineProblem(.badJSON, "data is not an object") }
        let seed = CRC32C.checksumOfHex(previousChain)
        // Combining costs about as much as reading 750 bytes again, so short lines are simply read twice.
        let chain =
            chainAt > 1024
            ? CRC32C.combine(seed, body, lengthB: chainAt)
            : CRC32C.checksum(UnsafeRawBufferPointer(rebasing: line[..<chainAt]), continuing: seed)
        guard chain == statedChain || (allowStripped && isStripped(data)) else {
            throw LineProblem(.badChain, "chain mismatch (a line deleted, reordered or spliced?)")
        }
        guard seq >= 1, seq < 1 << 53, v >= 0, v <= Int64(Int32.max) else {
            throw LineProblem(.badJSON, "seq or v out of range")
        }
        return EventEnvelope(
            seq: seq, ts: ts, type: type, v: Int(v), cause: cause, corr: corr, data: Array(data), chain: statedChain,
            crc: crc)
    }

    /// Whether a `data` object is one whose payload compaction stripped: it has a `compacted` object member.
    static func isStripped(_ data: UnsafeRawBufferPointer.SubSequence) -> Bool {
        guard case .object(let members)? = try? JSONValue.parse(UnsafeRawBufferPointer(rebasing: data)),
            case .object = members["compacted"]
        else { return false }
        return true
    }

    static func matches(
        _ line: UnsafeRawBufferPointer, at offset: Int, _ literal: StaticString, length: Int? = nil
    ) -> Bool {
        let count = length ?? literal.utf8CodeUnitCount
        guard offset >= 0, offset + count <= line.count else { return false }
        let bytes = literal.utf8Start
        for index in 0..<count where line[offset + index] != bytes[index] { return false }
        return true
    }

}

/// Why a log line is not valid.
package struct LineProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable reason, used in `log.recovered` and error messages.
    package enum Reason: String, Sendable {
        case noNewline = "no_newline"
        case badJSON = "bad_json"
        case badCRC = "bad_crc"
        case badChain = "bad_chain"
        case badSeq = "bad_seq"
    }

    package var reason: Reason
    package var detail: String

    package init(_ reason: Reason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }

    package var description: String { detail }
}

/// Walks the fixed envelope fields of a line from the left.
private struct FieldScanner {
    let line: UnsafeRawBufferPointer
    let end: Int
    var offset = 0

    init(line: UnsafeRawBufferPointer, end: Int) {
        self.line = line
        self.end = end
    }

    func peek(_ key: StaticString) -> Bool { EnvelopeCodec.matches(line, at: offset, key) }

    mutating func expect(_ key: StaticString) throws(LineProblem) {
        guard offset + key.utf8CodeUnitCount <= end, EnvelopeCodec.matches(line, at: offset, key) else {
            throw LineProblem(.badJSON, "expected \(key) at byte \(offset) (envelope keys out of order?)")
        }
        offset += key.utf8CodeUnitCount
    }

    mutating func integerField(_ key: StaticString) throws(LineProblem) -> Int64 {
        try expect(key)
        let start = offset
        var value: Int64 = 0
        while offset < end, line[offset] >= 48, line[offset] <= 57 {
            guard offset - start < 16 else { throw LineProblem(.badJSON, "number too long at byte \(start)") }
            value = value * 10 + Int64(line[offset] - 48)
            offset += 1
        }
        guard offset > start, offset - start == 1 || line[start] != 48 else {
            throw LineProblem(.badJSON, "expected an integer at byte \(start)")
        }
        return value
    }

    mutating func stringField(_ key: StaticString) throws(LineProblem) -> String {
        try expect(key)
        guard offset < end, line[offset] == UInt8(ascii: "\"") else {
            throw LineProblem(.badJSON, "expected a string at byte \(offset)")
        }
        let start = offset
        var plain = true
        offset += 1
        while offset < end, line[offset] != UInt8(ascii: "\"") {
            let byte = line[offset]
            if byte == UInt8(ascii: "\\") {
                plain = false
                offset += 1
            } else if byte >= 0x80 || byte < 0x20 {
                plain = false
            }
            offset += 1
        }
        guard offset < end else { throw LineProblem(.badJSON, "unterminated string at byte \(start)") }
        offset += 1
        let literal = UnsafeRawBufferPointer(rebasing: line[start..<offset])
        if plain { return String(decoding: literal.dropFirst().dropLast(), as: UTF8.self) }
        let parsed: JSONValue
        do { parsed = try JSONValue.parse(literal) } catch {
            throw LineProblem(.badJSON, "invalid string at byte \(start): \(error)")
        }
        guard case .string(let text) = parsed else { throw LineProblem(.badJSON, "invalid string at byte \(start)") }
        return text
    }

    mutating func rest(_ key: StaticString) throws(LineProblem) -> UnsafeRawBufferPointer.SubSequence {
        try expect(key)
        return line[offset..<end]
    }
}
