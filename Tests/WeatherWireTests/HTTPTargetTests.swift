import Testing

@testable import WeatherWire

@Suite("Request targets read as paths and queries")
struct HTTPTargetTests {
    @Test("percent-encoded UTF-8 and + in the query decode; the path keeps its +")
    func decoding() throws {
        let target = try HTTPTarget("/S%C3%A3o%20Paulo?format=%25l:+%25c&m")
        #expect(target.segments == ["São Paulo"])
        #expect(target.query("format") == "%l: %c")
        #expect(target.has("m"))
        #expect(target.query("m") == "")
        #expect(target.query("u") == nil)
        #expect(try HTTPTarget("/a+b").segments == ["a+b"])
        #expect(try HTTPTarget("/48.85,2.35").segments == ["48.85,2.35"])
        #expect(try HTTPTarget("/").segments.isEmpty)
        #expect(try HTTPTarget("http://localhost:9466/v1/current?x=1").path == "/v1/current")
    }

    @Test(
        "a target that climbs, is not UTF-8, has a bad escape or a control character is refused with a reason",
        arguments: [
            "/..", "/a/../b", "/%2e%2e/etc", "/%2E%2e", "/.", "/%C3%28", "/%FF", "/a%2", "/a%zz", "/a%0Ab",
            "/?format=%1B[31m", "*", "Berlin", "/a%2Fb",
        ])
    func refused(_ text: String) {
        #expect(throws: HTTPWireError.self) { try HTTPTarget(text) }
        do {
            _ = try HTTPTarget(text)
        } catch {
            #expect(error.status == .badRequest)
            #expect(error.kind == "bad-target")
            // The sentence never echoes what was sent.
            #expect(!error.message.contains("\u{1B}"))
        }
    }
}
