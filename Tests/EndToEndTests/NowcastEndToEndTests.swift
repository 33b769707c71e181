import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("weatherd nowcast end to end: MET Norway's terms kept against a stand-in on 127.0.0.1")
struct NowcastEndToEndTests {
    /// MET Norway's recorded Tromsø answer moved to the 5-minute step holding now, with `rates` (mm/h) in its
    /// first steps.
    static func metNow(rates: [Double]) throws -> [UInt8] {
        let recorded = try JSONValue.parse(
            try ProviderEndToEndTests.fixture("metno-nowcast-complete-tromso-20230303.json"))
        let slot = Int64(Date().timeIntervalSince1970) / 300 * 300
        var index = -1
        var rate = -1
        return ProviderEndToEndTests.rewritingMembers(of: recorded) { key, member in
            switch key {
            case "time":
                index += 1
                return .string(Timestamp(milliseconds: (slot + Int64(index) * 300) * 1000).description)
            case "precipitation_rate" where member.doubleValue != nil:
                rate += 1
                return .double(rate < rates.count ? rates[rate] : 0)
            default:
                return nil
            }
        }.jsonBytes
    }

    @Test("the sparkline and sentence; the User-Agent names the contact; no second call before Expires; no source")
    func session() async throws {
        let server = try LocalHTTPServer()
        server.route(
            "/weatherapi/nowcast/2.0/complete",
            .init(
                headers: [
                    "Expires": "Fri, 01 Jan 2099 00:00:00 GMT", "Last-Modified": "Fri, 27 Nov 2026 11:00:00 GMT",
                ], body: try Self.metNow(rates: [0, 0, 0, 1.2, 1.2])))
        let directory = TemporaryDataDirectory()
        let base = [
            "--standalone", "--data-dir", directory.path, "--met-norway-base-url", server.baseURL, "--contact",
            "e2e@weatherd.test",
        ]
        let first = try await runCommand(["nowcast", "69.68,18.94"] + base)
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.lines.first == "69.68,18.94  now ▕···▃▃·······▏ +1h", "\(first.output)")
        #expect(
            first.lines.dropFirst().first?.hasPrefix("Light precipitation starting in about 1") == true,
            "\(first.output)")
        #expect(first.lines.last == "Data from MET Norway (api.met.no), CC BY 4.0")
        #expect(server.requests == ["/weatherapi/nowcast/2.0/complete?lat=69.68&lon=18.94"])
        #expect(server.requestHeaders.first?["user-agent"] == "weatherd/0.1.0 (e2e@weatherd.test)")

        let again = try await runCommand(["nowcast", "69.68,18.94", "--json"] + base)
        let answer = try JSONValue.parse(Array(again.output.utf8))
        #expect(answer["cached"] == true)
        #expect(answer["summary"]?["state"] == "starting")
        #expect(server.requests.count == 1, "the answer's Expires is far ahead: no second request")

        let quito = try await runCommand(["nowcast", "-0.18,-78.47", "--nowcast-sources", "met-norway"] + base)
        #expect(quito.status == 1, "no source answered")
        #expect(quito.output.isEmpty, "\(quito.output)")
        #expect(
            quito.errors.contains(
                "weatherd nowcast: -0.18,-78.47: No nowcast source could answer for this place: met-norway serves "
                    + "Norway, Sweden, Finland and Denmark only."), "\(quito.errors)")
        #expect(server.requests.count == 1)
        let check = try Repository.checkLog(directory.path)
        #expect(check.types["nowcast.fetched"] == 1, "every event valid against its schema, one call audited")
    }
}
