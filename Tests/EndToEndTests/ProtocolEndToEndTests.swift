import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("weatherd end to end: the JSON-RPC specification's error cases over real pipes")
struct ProtocolEndToEndTests {
    @Test("errors for malformed input, and nothing for notifications; the service keeps serving")
    func errorCases() async throws {
        let directory = TemporaryDataDirectory()
        let weatherd = try startWeatherd(directory, ["--max-line-bytes", "1024"])
        try weatherd.send(line: #"{"jsonrpc":"2.0","method":"foobar,"params":"bar","baz]"#)
        try weatherd.send(line: #"{"jsonrpc":"2.0","method":1,"params":"bar"}"#)
        try weatherd.send(line: "[]")
        try weatherd.send(line: #"[{"jsonrpc":"2.0","method":"settings/get"},{"jsonrpc":"2.0","method":"no/such"}]"#)
        try weatherd.send(line: #"{"jsonrpc":"2.0","method":"no/such"}"#)
        try weatherd.write([0x7B, 0xFF, 0xFE, 0x7D, 0x0A])
        try weatherd.send(line: "{\"pad\":\"" + String(repeating: "x", count: 5000) + "\"}")
        let unknown = try await weatherd.call("no/such")
        #expect(unknown["error"]?["code"] == -32601)

        let messages = try weatherd.output.messages()
        #expect(messages.count == 6, "five errors and the -32601 answer; notifications answer nothing")
        let codes = messages.prefix(5).map { $0["error"]?["code"]?.intValue }
        #expect(codes == [-32700, -32600, -32600, -32700, -32600])
        #expect(messages.prefix(5).allSatisfy { $0["id"] == .null })
        #expect(messages[4]["error"]?["data"]?["kind"] == "line_too_long")
        #expect(messages[3]["error"]?["data"]?["kind"] == "invalid_utf8")
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)
    }

    @Test("stdout carries only protocol lines, each one whole JSON value")
    func onlyProtocolLines() async throws {
        let directory = TemporaryDataDirectory()
        let weatherd = try startWeatherd(directory, ["--log-level", "debug"])
        for index in 0..<50 {
            try weatherd.send(
                line:
                    #"{"jsonrpc":"2.0","id":\#(index),"method":"favorites/add","params":{"name":"P\#(index)","lat":\#(index),"lon":0}}"#
            )
        }
        #expect(await weatherd.output.wait(for: 50))
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)
        let messages = try weatherd.output.messages()
        #expect(messages.count == 50)
        #expect(Set(messages.compactMap { $0["id"]?.intValue }) == Set(0..<50))
        #expect(messages.allSatisfy { $0["result"]?["id"] != nil })
    }
}
