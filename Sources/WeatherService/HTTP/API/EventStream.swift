import Synchronization
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherWire

/// `GET /v1/events`: the log's committed events as Server-Sent Events, for dashboards and scripts (`curl -N`,
/// a browser's `EventSource`).
///
/// - Each event is `id: SEQ`, `event: TYPE` and `data:` the envelope as `events/query` gives it, on one line.
/// - It starts after `Last-Event-ID` (what `EventSource` sends when it reconnects), else `?after=SEQ`, else
///   from now on. The events from there are read from the log, then come live, with no gap and none twice
///   (`LogFollower`); `event: caughtUp` (`id:` and `data: {"lastSeq": N}`) marks the end of what was read.
/// - `?types=a,b` keeps only those types.
/// - A comment (`: heartbeat`) every 15 s of the engine's clock keeps proxies and idle timers from closing a
///   quiet stream.
/// - A client that stops reading holds the feed: nothing is queued for it past the connection's bound (the
///   rest waits in the log). When it takes nothing for the connection's timeout it is sent `event: cut`
///   (`data: {"lastSeq": N}`, the last event it was sent) and closed; it resumes from there.
/// - A log that cannot be read ends the stream with `event: error` and the problem.
struct EventStream: Sendable {
    let log: any LogFacet
    let clock: any RuntimeClock
    static let heartbeat: Duration = .seconds(15)

    func response(_ request: HTTPRequest, _ target: HTTPTarget) -> HTTPResponse {
        let after: Int64
        let types: Set<String>?
        do throws(RPCError) {
            let query = try APIQuery.params(target)
            for name in query.keys where name != "after" && name != "types" {
                throw .invalidParams("query.\(name) is not a parameter of /v1/events (after, types)")
            }
            let resumed = try Self.seq(request.headers["Last-Event-ID"], "Last-Event-ID")
            let asked = try Self.seq(query["after"]?.stringValue, "query.after")
            after = resumed ?? asked ?? log.lastSeq
            types = query["types"]?.arrayValue.map { Set($0.compactMap(\.stringValue)) }
        } catch {
            return APIAnswer.problem(error)
        }
        var response = HTTPResponse(
            .ok, headers: HTTPHeaders([("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")]))
        response.stream = HTTPStream { [self, types] sink in await run(sink, after: after, types: types) }
        return response
    }

    private static func seq(_ text: String?, _ name: String) throws(RPCError) -> Int64? {
        guard let text else { return nil }
        guard let seq = Int64(text), seq >= 0 else { throw .invalidParams("\(name) must be a seq (0 or more)") }
        return seq
    }

    private func run(_ sink: any HTTPStreamSink, after: Int64, types: Set<String>?) async {
        let progress = FeedProgress(after: after)
        let stalled = Latch()
        let room: @Sendable () async -> Void = {
            guard await sink.room() else {
                stalled.open()
                // The feed waits here until the stream's end cancels it.
                await Latch().wait()
                return
            }
        }
        await withTaskGroup(of: Void.self) { [log, clock] group in
            group.addTask {
                let ended = await log.feedEvents(afterSeq: after, types: types, room: room) { lastSeq in
                    progress.sent.withLock { $0 = max($0, lastSeq) }
                    sink.write(Self.event("caughtUp", id: lastSeq, data: ["lastSeq": .int(lastSeq)]))
                } send: { object in
                    // Once stalled, the feed only winds down: what it still hands over is not sent.
                    guard !stalled.isOpen else { return }
                    let seq = object["seq"]?.intValue ?? 0
                    progress.sent.withLock { $0 = seq }
                    sink.write(Self.event(object["type"]?.stringValue ?? "event", id: seq, data: object))
                }
                progress.end.withLock { $0 = ended }
            }
            group.addTask {
                while (try? await clock.sleep(until: clock.now.advanced(by: Self.heartbeat), tolerance: nil)) != nil {
                    sink.write(Array(": heartbeat\n\n".utf8))
                    await room()
                }
            }
            group.addTask { await stalled.wait() }
            await group.next()
            group.cancelAll()
        }
        let lastSeq = progress.sent.withLock { $0 }
        let end = progress.end.withLock { $0 }
        if stalled.isOpen {
            sink.write(Self.event("cut", id: nil, data: ["lastSeq": .int(lastSeq)]))
        } else if case .failed(let error, _)? = end {
            sink.write(Self.event("error", id: nil, data: APIAnswer.problemJSON(RPCError(error))))
        } else if case .lagged? = end {
            sink.write(Self.event("error", id: nil, data: ["lastSeq": .int(lastSeq)]))
        }
    }

    /// One event's lines; the JSON of `data` holds no line break (JSON escapes them).
    static func event(_ name: String, id: Int64?, data: [String: JSONValue]) -> [UInt8] {
        var text = id.map { "id: \($0)\n" } ?? ""
        text += "event: \(name)\ndata: "
        return Array(text.utf8) + JSONValue.object(data).jsonBytes + Array("\n\n".utf8)
    }
}

/// How far a stream's feed got: the last seq sent, and how the feed ended.
private final class FeedProgress: Sendable {
    let sent: Mutex<Int64>
    let end = Mutex<EventFeedEnd?>(nil)

    init(after: Int64) { sent = Mutex(after) }
}
