import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("weatherd end to end: a script that closes its input gets its answers")
struct EndOfInputEndToEndTests {
    /// `printf '…weather/current…' | weatherd`: the request is read, input ends at once, the upstream takes
    /// 3 s; weatherd answers it (it used to answer -32800 after a 1 s grace) and exits 0: alone, and as a
    /// relay to the shared daemon.
    @Test("end of input right after a request waits for its answer from a 3 s upstream", arguments: [true, false])
    func answerAfterEndOfInput(standalone: Bool) async throws {
        let server = try LocalHTTPServer()
        server.route(
            "/v1/forecast", query: "current=", .init(body: OpenMeteoBodies.current(temperature: 7), delay: .seconds(3)))
        let shared = try SharedDataDir()
        let directory = shared.directory
        let options = ["--open-meteo-base-url", server.baseURL]
        let weatherd = try standalone ? startWeatherd(directory, options) : shared.client(options)
        try weatherd.send(line: #"{"jsonrpc":"2.0","id":1,"method":"weather/current","params":{"lat":1,"lon":2}}"#)
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)
        let answer = try #require(try weatherd.output.messages().first { $0["id"] == 1 })
        #expect(answer["result"]?["current"]?["temperature"] == 7, "\(answer.jsonString)")
        #expect(answer["error"] == nil)
        try await shared.stopDaemon()
        let types = try logEvents(directory).map { $0["type"]?.stringValue ?? "" }
        #expect(types.contains("weather.fetched"))
        #expect(types.last == "service.stopped")
    }
}
