import EventLog
import Testing
import WeatherDomain

@Suite("CRC-32C and the envelope codec")
struct CodecTests {
    @Test("CRC-32C has the standard check value")
    func checkValue() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(String(decoding: CRC32C.hex(0xE306_9283), as: UTF8.self) == "e3069283")
        #expect(CRC32C.checksum([UInt8]()) == 0)
    }

    @Test("CRC-32C continues across pieces at any split", arguments: [0, 1, 7, 8, 9, 63, 100])
    func continuation(split: Int) {
        let bytes = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let whole = CRC32C.checksum(bytes)
        #expect(CRC32C.checksum(bytes[split...], continuing: CRC32C.checksum(bytes[..<split])) == whole)
    }

    @Test(
        "the checksum of a chain's hex digits equals the checksum of those digits as bytes",
        arguments: [0, 1, 0xE306_9283, 0xFFFF_FFFF, 0x0A0B_0C0D] as [UInt32])
    func hexSeed(value: UInt32) {
        #expect(CRC32C.checksumOfHex(value) == CRC32C.checksum(CRC32C.hex(value)))
    }

    @Test("combining two checksums equals the checksum of the joined bytes, at every split and length")
    func combine() {
        let bytes = (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
        for split in [0, 1, 7, 8, 9, 100, 1500, 2999, 3000] {
            let whole = CRC32C.checksum(bytes)
            let first = CRC32C.checksum(bytes[..<split])
            let second = CRC32C.checksum(bytes[split...])
            #expect(CRC32C.combine(first, second, lengthB: bytes.count - split) == whole, "split \(split)")
        }
        let seed = CRC32C.checksumOfHex(0x5E0C_11AA)
        for length in 0...64 {
            let body = Array(bytes[..<length])
            #expect(
                CRC32C.combine(seed, CRC32C.checksum(body), lengthB: length)
                    == CRC32C.checksum(body, continuing: seed), "length \(length)")
        }
    }

    @Test("CRC-32C of every length up to 40 matches the bit-by-bit definition")
    func everyLength() {
        let bytes = (0..<40).map { UInt8(truncatingIfNeeded: $0 &* 91 &+ 3) }
        for length in 0...bytes.count {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes[..<length] {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            }
            #expect(CRC32C.checksum(bytes[..<length]) == ~crc, "length \(length)")
        }
    }

    @Test(
        "long inputs, read as two interleaved halves, match the bit-by-bit definition at and around the threshold",
        arguments: [4095, 4096, 4097, 4103, 4104, 10_007, 65_539])
    func twoStreams(length: Int) {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        func reference(_ bytes: ArraySlice<UInt8>, from start: UInt32) -> UInt32 {
            var crc = ~start
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            }
            return ~crc
        }
        #expect(CRC32C.checksum(bytes) == reference(bytes[...], from: 0))
        // Continuing from an earlier checksum, and from a start that is not a multiple of 8 bytes in.
        let seed = CRC32C.checksumOfHex(0x5E0C_11AA)
        #expect(CRC32C.checksum(bytes, continuing: seed) == reference(bytes[...], from: seed))
        #expect(CRC32C.checksum(bytes[3...]) == reference(bytes[3...], from: 0))
    }

    static func line(seq: Int64, corr: String? = nil, previousChain: UInt32 = 0) -> (bytes: [UInt8], chain: UInt32) {
        var buffer: [UInt8] = []
        let event = NewEvent(
            type: "favorite.added", v: 1, cause: "rpc:\"7\"", corr: corr,
            data: JSONValue.object(["b": 1, "a": "é"]).jsonBytes)
        let (chain, _) = EnvelopeCodec.encode(
            seq: seq, ts: Timestamp(milliseconds: 1_795_372_467_123), event: event, previousChain: previousChain,
            into: &buffer)
        return (buffer, chain)
    }

    @Test("a line has the documented key order, sorted data and a newline")
    func layout() throws {
        let text = String(decoding: Self.line(seq: 42, corr: "c-19").bytes, as: UTF8.self)
        #expect(
            text.hasPrefix(
                #"{"seq":42,"ts":"2026-11-22T18:34:27.123Z","type":"favorite.added","v":1,"cause":"rpc:\"7\"","corr":"c-19","data":{"a":"é","b":1},"chain":""#
            ))
        #expect(text.hasSuffix("\"}\n"))
        #expect(text.filter { $0 == "\n" }.count == 1)
    }

    @Test("chain and crc follow the catalog (Events/README.md) exactly")
    func checksums() throws {
        let (bytes, chain) = Self.line(seq: 1, previousChain: 0xDEAD_BEEF)
        let line = Array(bytes.dropLast())
        let text = String(decoding: line, as: UTF8.self)
        let chainAt = try #require(Self.find(Array(#","chain":""#.utf8), in: line))
        let crcAt = try #require(Self.find(Array(#","crc":""#.utf8), in: line))
        let expectedChain = CRC32C.checksum(Array("deadbeef".utf8) + line[..<chainAt])
        #expect(chain == expectedChain)
        #expect(text.contains(#""chain":"\#(String(decoding: CRC32C.hex(expectedChain), as: UTF8.self))""#))
        let expectedCRC = CRC32C.checksum(line[..<crcAt])
        #expect(text.hasSuffix(#""crc":"\#(String(decoding: CRC32C.hex(expectedCRC), as: UTF8.self))"}"#))
    }

    @Test("a long line (whose chain decode combines checksums) reads back, and a wrong predecessor fails its chain")
    func longLine() throws {
        var bytes: [UInt8] = []
        let event = NewEvent(
            type: "weather.fetched", v: 1, cause: "timer:refresh", corr: nil,
            data: JSONValue.object(["text": .string(String(repeating: "forecast ", count: 800))]).jsonBytes)
        let (chain, crc) = EnvelopeCodec.encode(
            seq: 7, ts: Timestamp(milliseconds: 0), event: event, previousChain: 0x1234_5678, into: &bytes)
        let line = Array(bytes.dropLast())
        #expect(line.count > 4096)
        let decoded = try line.withUnsafeBytes { try EnvelopeCodec.decode($0, previousChain: 0x1234_5678) }
        #expect(decoded.chain == chain && decoded.crc == crc && decoded.data == event.data)
        #expect(chain == CRC32C.checksum(Array("12345678".utf8) + line[..<(line.count - 37)]))
        #expect(throws: LineProblem.self) {
            try line.withUnsafeBytes { try EnvelopeCodec.decode($0, previousChain: 0x1234_5679) }
        }
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        (0...(haystack.count - needle.count)).first { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }

    @Test("decode reads back every field and checks the chain")
    func decode() throws {
        let (bytes, chain) = Self.line(seq: 9, corr: "c-1", previousChain: 5)
        let envelope = try bytes.dropLast().withUnsafeBytes { try EnvelopeCodec.decode($0, previousChain: 5) }
        #expect(envelope.seq == 9)
        #expect(envelope.cause == "rpc:\"7\"")
        #expect(envelope.corr == "c-1")
        #expect(envelope.chain == chain)
        #expect(try envelope.decodedData() == .object(["a": "é", "b": 1]))
        #expect(throws: LineProblem.self) {
            try bytes.dropLast().withUnsafeBytes { try EnvelopeCodec.decode($0, previousChain: 6) }
        }
    }

    @Test("any single changed byte fails the line")
    func flips() {
        let line = Array(Self.line(seq: 3).bytes.dropLast())
        for index in line.indices {
            var damaged = line
            damaged[index] ^= 0x01
            let decoded = damaged.withUnsafeBytes { raw -> Bool in
                do {
                    _ = try EnvelopeCodec.decode(raw, previousChain: 0)
                    return true
                } catch {
                    return false
                }
            }
            #expect(!decoded, "flipping byte \(index) went unnoticed")
        }
    }
}
