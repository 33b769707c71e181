import WeatherRuntime
import WeatherWire

/// One client's requests, read and answered in order on a channel of the event loop.
struct HTTPConnection {
    let channel: Channel
    let clock: any RuntimeClock
    let settings: HTTPService.Settings
    let handler: HTTPHandler

    func run() async {
        let inbox = HTTPInbox(limits: settings.limits)
        channel.startReading { [channel] input in
            switch input {
            case .bytes(let bytes): if inbox.append(bytes) { channel.pauseReading() }
            case .end: inbox.end()
            }
        }
        while !Task.isCancelled {
            let step = await firstBefore(clock.now.advanced(by: settings.timeout), clock) { await inbox.next() }
            guard !Task.isCancelled else { return }
            switch step {
            case nil:
                let timeout = HTTPResponse(.requestTimeout, text: "The request took too long to arrive.\n")
                return await finish(timeout, inbox)
            case .ended?:
                if let error = inbox.finish() { return await finish(HTTPResponse(error), inbox) }
                return await channel.flush()
            case .event(.expectsContinue)?: channel.write(HTTPResponse.continueBytes)
            case .event(.failure(let error))?: return await finish(HTTPResponse(error), inbox)
            case .event(.request(let request))?:
                if inbox.mayResume() { channel.resumeReading() }
                let response: HTTPResponse
                do {
                    response = await handler(request, try request.parsedTarget())
                } catch {
                    response = HTTPResponse(error)
                }
                guard !Task.isCancelled else { return }
                if let stream = response.stream { return await self.stream(response, stream, request, inbox) }
                let isHead = request.method == "HEAD"
                guard request.keepAlive else { return await finish(response, inbox, forHEAD: isHead) }
                channel.write(response.serialized(forHEAD: isHead, keepAlive: true))
                guard channel.unwrittenBytes > settings.maxUnwrittenBytes else { continue }
                // The client is not reading: it has the timeout to take what is queued, else it is cut.
                let taken = await firstBefore(clock.now.advanced(by: settings.timeout), clock) { [channel] in
                    await channel.flush()
                    return true
                }
                guard taken != nil else { return }
            }
        }
    }

    /// Writes a streamed answer: its head, then its body as `stream` writes it (chunked on HTTP/1.1, else ended
    /// by the close), until the body ends, the client closes its side or the service stops. The connection
    /// then closes, once what is queued is written or the timeout has passed.
    private func stream(_ response: HTTPResponse, _ stream: HTTPStream, _ request: HTTPRequest, _ inbox: HTTPInbox)
        async
    {
        let chunked = request.acceptsChunked
        channel.write(response.streamHead(chunked: chunked))
        if request.method != "HEAD" {
            let sink = StreamSink(
                channel: channel, chunked: chunked, clock: clock, timeout: settings.timeout,
                bound: settings.maxUnwrittenBytes)
            // What the client sends from now on is only counted; its end ends the stream.
            inbox.startDraining()
            channel.resumeReading()
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await stream.body(sink) }
                group.addTask { _ = await inbox.drained(limit: .max) }
                await group.next()
                group.cancelAll()
            }
            if chunked { channel.write(HTTPChunked.end) }
        }
        channel.shutdownOutputWhenFlushed()
        _ = await firstBefore(clock.now.advanced(by: settings.timeout), clock) { [channel] in
            await channel.flush()
            return true
        }
    }

    /// Writes the last answer, ends the output once it is written, and reads what the client still sends
    /// until it closes (at most 64 KiB, at most the timeout), so that its answer is not lost to a reset.
    private func finish(_ response: HTTPResponse, _ inbox: HTTPInbox, forHEAD: Bool = false) async {
        channel.write(response.serialized(forHEAD: forHEAD, keepAlive: false))
        channel.shutdownOutputWhenFlushed()
        inbox.startDraining()
        channel.resumeReading()
        _ = await firstBefore(clock.now.advanced(by: settings.timeout), clock) { await inbox.drained() }
    }
}

/// A streamed body's way to its connection: pieces go out as chunks (or as they are, on HTTP/1.0), and a
/// client that lets more than `bound` bytes queue up has `timeout` to take them.
private struct StreamSink: HTTPStreamSink {
    let channel: Channel
    let chunked: Bool
    let clock: any RuntimeClock
    let timeout: Duration
    let bound: Int

    func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        channel.write(chunked ? HTTPChunked.chunk(bytes) : bytes)
    }

    func room() async -> Bool {
        guard !channel.isOutputClosed, !Task.isCancelled else { return false }
        guard channel.unwrittenBytes > bound else { return true }
        let taken = await firstBefore(clock.now.advanced(by: timeout), clock) { [channel] in
            await channel.flush()
            return true
        }
        return taken != nil && !channel.isOutputClosed
    }
}
