import Foundation
import Testing
import WeatherDomain
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("weatherd end to end: kill -9 loop")
struct KillLoopEndToEndTests {
    @Test(
        "50 cycles of pipelined changes and SIGKILL: every acknowledged change exactly once, resends write nothing twice"
    )
    func killLoop() async throws {
        let directory = TemporaryDataDirectory()
        var random = (UInt64(7), 0)
        func next(_ bound: Int) -> Int {
            random.0 = random.0 &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((random.0 >> 33) % UInt64(bound))
        }
        var acknowledged: Set<String> = []
        var sent: [String: String] = [:]
        var number = 0
        for cycle in 0..<50 {
            let weatherd = try startWeatherd(directory)
            // Resend what the last cycle sent but never saw answered: each must still give one event.
            var lines: [String] = sent.filter { !acknowledged.contains($0.key) }.map(\.value)
            for _ in 0..<20 {
                number += 1
                let id = "c-\(number)"
                let line =
                    #"{"jsonrpc":"2.0","id":"\#(id)","method":"favorites/add","params":{"name":"P\#(number)","lat":\#(-80 + Double(number) * 0.05),"lon":0,"commandId":"\#(id)"}}"#
                sent[id] = line
                lines.append(line)
            }
            try weatherd.send(line: lines.joined(separator: "\n"))
            // Every other cycle (seeded) is killed only after its first answer, so some changes are acknowledged
            // however slow the machine; the others are killed wherever the time lands, maybe before any answer.
            if next(2) == 0 { #expect(await weatherd.output.wait(for: 1), "cycle \(cycle): no answer at all") }
            try await Task.sleep(for: .milliseconds(next(40)))
            weatherd.signal(SIGKILL)
            _ = await weatherd.waitForExit()
            for message in try weatherd.output.messages() where message["result"] != nil {
                if let id = message["id"]?.stringValue { acknowledged.insert(id) }
            }
        }
        let final = try startWeatherd(directory)
        for (id, line) in sent where !acknowledged.contains(id) { try final.send(line: line) }
        let query = try await final.call("events/query", ["types": ["favorite.added"], "limit": 1000])
        var corrs: [String] = query["result"]?["events"]?.arrayValue?.compactMap { $0["corr"]?.stringValue } ?? []
        var cursor = query["result"]?["nextCursor"]
        while let next = cursor {
            let page = try await final.call(
                "events/query", ["types": ["favorite.added"], "limit": 1000, "cursor": next])
            corrs += page["result"]?["events"]?.arrayValue?.compactMap { $0["corr"]?.stringValue } ?? []
            cursor = page["result"]?["nextCursor"]
        }
        try final.closeInput()
        #expect(await final.waitForExit() == 0)
        #expect(acknowledged.isSubset(of: Set(corrs)), "an acknowledged change was lost")
        #expect(corrs.count == Set(corrs).count, "a commandId wrote twice")
        #expect(Set(corrs) == Set(sent.keys), "after the resends every command is there exactly once")
        try Repository.checkLog(directory.path)
        #expect(acknowledged.count > 0, "the cycles killed after an answer acknowledged something")
    }
}
