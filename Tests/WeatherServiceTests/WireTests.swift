import Foundation
import Testing
import WeatherDomain
import WeatherService
import WeatherTesting

@Suite("What goes on the wire and into the log, in process")
struct WireTests {
    /// Whether `bytes` holds the raw UTF-8 of U+2028 or U+2029.
    static func hasRawSeparator(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 3 else { return false }
        return (0..<(bytes.count - 2)).contains { index in
            bytes[index] == 0xE2 && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9)
        }
    }

    @Test("U+2028 and U+2029 in a name go out escaped, on stdout and in the log, and decode back to the name")
    func lineSeparatorsAreEscaped() async throws {
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(directory: directory)
        let name = "Line\u{2028}Paragraph\u{2029}End"
        let added = try await service.result("favorites/add", ["name": .string(name), "lat": 1, "lon": 2])
        _ = try await service.result("favorites/list")
        await service.stop()
        #expect(added["name"] == .string(name))
        let lines = service.output.lines
        #expect(lines.count == 2)
        for line in lines {
            #expect(!Self.hasRawSeparator(line), "raw separator in \(String(decoding: line, as: UTF8.self))")
            #expect(String(decoding: line, as: UTF8.self).contains(#"Line\u2028Paragraph\u2029End"#))
        }
        let log = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory.logPath)))
        #expect(log.contains(UInt8(ascii: "L")) && !Self.hasRawSeparator(log))
        let listed = try #require(
            try service.output.messages().last?["result"]?["favorites"]?.arrayValue?.first?["name"])
        #expect(listed == .string(name))
    }
}
