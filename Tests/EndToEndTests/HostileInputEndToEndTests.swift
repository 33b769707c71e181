import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("weatherd end to end: hostile input")
struct HostileInputEndToEndTests {
    struct Generator {
        var state: UInt64

        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(max(1, bound)))
        }
    }

    /// The most memory the flood may take: the input is about 60 MB, the in-flight bound is 1,024 lines of
    /// at most 64 KiB, and an idle weatherd takes about 15 MB.
    static let peakMemoryBound: Int64 = 160 << 20

    @Test(
        "100,000 seeded random and mutated lines: no crash, bounded memory, every well-formed request answered once")
    func flood() async throws {
        let directory = TemporaryDataDirectory()
        let weatherd = try startWeatherd(directory, ["--max-line-bytes", "65536"])
        // Making 60 MB of lines and writing them into a pipe the child drains at its own pace blocks for a long
        // while: on a thread of its own, never on the tests' shared threads.
        let expected = try await onThread { () throws -> Set<String> in
            var random = Generator(state: 2026)
            let methods = [
                "settings/get", "favorites/list", "history/list", "service/status", "no/such", "settings/set",
                "favorites/add", "favorites/remove", "events/query", "location/get",
            ]
            let valueSamples = [
                "1", "-0", "1e308", "123456789012345678901234567890", "\"x\"", "null", "true", "[]", "{}",
                "\"\\ud800\"",
                String(repeating: "[", count: 70) + String(repeating: "]", count: 70),
                "\"" + String(repeating: "é", count: 3000) + "\"",
            ]
            let malformed: Set<Int> = [9, 10]
            var expected = Set<String>()
            var chunk: [UInt8] = []
            for index in 0..<100_000 {
                var line: [UInt8]
                switch random.next(10) {
                case 0...2:
                    let id = "h-\(index)"
                    let method = methods[random.next(methods.count)]
                    let units = random.next(valueSamples.count)
                    let name = random.next(valueSamples.count)
                    let params =
                        "{\"units\":\(valueSamples[units]),\"name\":\(valueSamples[name]),\"lat\":\(random.next(200) - 100),\"lon\":\(random.next(400) - 200),\"id\":\"fav-\(random.next(5))\"}"
                    line = Array(#"{"jsonrpc":"2.0","id":"\#(id)","method":"\#(method)","params":\#(params)}"#.utf8)
                    // A lone surrogate escape or nesting past 64 makes the whole line a parse error, answered with id null.
                    if !malformed.contains(units), !malformed.contains(name) { expected.insert(id) }
                case 3:
                    line = Array(
                        #"{"jsonrpc":"2.0","method":"\#(methods[random.next(methods.count)])","params":{}}"#.utf8)
                case 4:
                    line = (0..<random.next(300)).map { _ in UInt8(random.next(256)) }.filter { $0 != 0x0A }
                case 5:
                    line =
                        Array("[".utf8)
                        + Array(
                            repeating: Array(#"{"jsonrpc":"2.0","id":null,"method":"settings/get"},"#.utf8),
                            count: random.next(5)
                        ).flatMap { $0 } + Array("1]".utf8)
                default:
                    line = Array(#"{"jsonrpc":"2.0","id":"m-\#(index)","method":"settings/get","params":{}}"#.utf8)
                    for _ in 0..<(1 + random.next(3)) {
                        let at = random.next(line.count)
                        line[at] = UInt8(random.next(256))
                    }
                    line.removeAll { $0 == 0x0A }
                }
                chunk += line
                chunk.append(0x0A)
                if chunk.count > 1 << 20 {
                    try weatherd.write(chunk)
                    chunk.removeAll(keepingCapacity: true)
                }
            }
            try weatherd.write(chunk)
            return expected
        }
        let peak = try weatherd.peakResidentBytes()
        try weatherd.closeInput()
        let status = await weatherd.waitForExit()
        #expect(status == 0, "weatherd must end cleanly; stderr: \(weatherd.standardError.suffix(500))")
        var answered: [String: Int] = [:]
        for line in weatherd.output.lines {
            let message = try JSONValue.parse(line)
            if let id = message["id"]?.stringValue, id.hasPrefix("h-") { answered[id, default: 0] += 1 }
        }
        let missing = expected.subtracting(answered.keys).sorted()
        #expect(
            missing.isEmpty, "every well-formed request is answered; missing \(missing.count): \(missing.prefix(5))")
        #expect(answered.values.allSatisfy { $0 == 1 }, "and exactly once")
        try Repository.checkLog(directory.path)
        #expect(peak < Self.peakMemoryBound, "peak RSS \(peak >> 20) MiB while flooded")
    }
}
