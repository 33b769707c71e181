import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@Suite("Event subscriptions, in process")
struct SubscriptionTests {
    /// The `events/event` seqs, in the order they were pushed.
    static func pushedSeqs(_ messages: [JSONValue]) -> [Int64] {
        messages.filter { $0["method"] == "events/event" }.compactMap { $0["params"]?["seq"]?.intValue }
    }

    @Test("from 0: the whole history, then caughtUp, then live events, gapless, all after the answer")
    func catchUpThenLive() async throws {
        try await InProcessWeatherd.with { service in
            for index in 0..<30 {
                _ = try await service.result(
                    "favorites/add", ["name": .string("P\(index)"), "lat": .int(Int64(index)), "lon": 0])
            }
            let before = service.output.lines.count
            let answer = try await service.call("events/subscribe", ["afterSeq": 0])
            #expect(answer["result"]?["subscriptionId"] == "sub-1")
            for index in 30..<40 {
                _ = try await service.result(
                    "favorites/add", ["name": .string("P\(index)"), "lat": .int(Int64(index)), "lon": 0])
            }
            #expect(try await eventually { try Self.pushedSeqs(service.output.messages()).count >= 40 })
            let messages = Array(try service.output.messages()[before...])
            #expect(Self.pushedSeqs(messages) == Array(1...40))
            let answerIndex = try #require(messages.firstIndex { $0["result"]?["subscriptionId"] != nil })
            let firstPush = try #require(messages.firstIndex { $0["method"] == "events/event" })
            #expect(answerIndex < firstPush, "the answer comes before the first notification")
            let caughtUp = try #require(messages.firstIndex { $0["method"] == "events/caughtUp" })
            let caughtUpSeq = try #require(messages[caughtUp]["params"]?["lastSeq"]?.intValue)
            #expect(caughtUpSeq >= 30)
            #expect(Self.pushedSeqs(Array(messages[..<caughtUp])) == Array(1...caughtUpSeq))
            let event = try #require(messages.first { $0["method"] == "events/event" })
            #expect(event["params"]?["type"] == "favorite.added")
            #expect(event["params"]?["chain"] != nil)
            #expect(event.objectValue?.keys.sorted() == ["jsonrpc", "method", "params"])
        }
    }

    @Test("a type filter, and unsubscribe stops the pushes")
    func filterAndUnsubscribe() async throws {
        try await InProcessWeatherd.with { service in
            _ = try await service.result("settings/set", ["units": "imperial"])
            _ = try await service.result("events/subscribe", ["afterSeq": 0, "types": ["settings.changed"]])
            _ = try await service.result("favorites/add", ["name": "A", "lat": 1, "lon": 1])
            _ = try await service.result("settings/set", ["units": "metric"])
            #expect(try await eventually { try Self.pushedSeqs(service.output.messages()).count >= 2 })
            let pushed = try service.output.messages().filter { $0["method"] == "events/event" }
            #expect(pushed.map { $0["params"]?["data"]?["units"] } == ["imperial", "metric"])
            let stopped = try await service.result("events/unsubscribe", ["subscriptionId": "sub-1"])
            #expect(stopped["unsubscribed"] == ["sub-1"])
            _ = try await service.result("settings/set", ["units": "standard"])
            try await Task.sleep(for: .milliseconds(100))
            #expect(try service.output.messages().filter { $0["method"] == "events/event" }.count == 2)
        }
    }

    @Test("nothing unsolicited: without a subscription, changes push nothing")
    func nothingUnsolicited() async throws {
        try await InProcessWeatherd.with { service in
            _ = try await service.result("settings/set", ["units": "imperial"])
            _ = try await service.result("favorites/add", ["name": "A", "lat": 1, "lon": 1])
            // With no feed there is nothing that could push: the answers are all there is, once they are in.
            await service.server.drain()
            #expect(try service.output.messages().allSatisfy { $0["id"] != nil })
        }
    }
}
