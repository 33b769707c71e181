import EventLog
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService

@Suite("Event bus")
struct BusTests {
    static func envelope(_ seq: Int64) -> EventEnvelope {
        EventEnvelope(
            seq: seq, ts: Timestamp(milliseconds: 0), type: "t", v: 1, cause: "test", corr: nil, data: Array("{}".utf8),
            chain: 0, crc: 0)
    }

    @Test("every subscriber gets committed events in log order")
    func order() async {
        let bus = EventBus()
        let (first, after) = bus.subscribe(capacity: 100)
        let (second, _) = bus.subscribe(capacity: 100)
        #expect(after == 0)
        bus.publish((1...3).map(Self.envelope))
        bus.publish([Self.envelope(4)])
        for subscription in [first, second] {
            var seqs: [Int64] = []
            for _ in 0..<4 {
                if case .event(let envelope)? = await subscription.next() { seqs.append(envelope.seq) }
            }
            #expect(seqs == [1, 2, 3, 4])
        }
    }

    @Test("a subscriber that falls behind is cut off with a lagged marker naming the last seq it got")
    func lagged() async {
        let bus = EventBus(lastSeq: 10)
        let (slow, after) = bus.subscribe(capacity: 3)
        let (fast, _) = bus.subscribe(capacity: 100)
        #expect(after == 10)
        bus.publish([Self.envelope(11), Self.envelope(12)])
        bus.publish([Self.envelope(13), Self.envelope(14)])
        var messages: [EventBus.Message] = []
        while let message = await slow.next() { messages.append(message) }
        #expect(messages == [.event(Self.envelope(11)), .event(Self.envelope(12)), .lagged(lastSeq: 12)])
        #expect(bus.subscriberCount == 1)
        var fastSeqs: [Int64] = []
        for _ in 0..<4 {
            if case .event(let envelope)? = await fast.next() { fastSeqs.append(envelope.seq) }
        }
        #expect(fastSeqs == [11, 12, 13, 14])
    }

    @Test("cancelling ends a waiting subscriber and removes it")
    func cancel() async {
        let bus = EventBus()
        let (subscription, _) = bus.subscribe()
        let waiter = Task { await subscription.next() }
        subscription.cancel()
        #expect(await waiter.value == nil)
        #expect(bus.subscriberCount == 0)
    }
}
