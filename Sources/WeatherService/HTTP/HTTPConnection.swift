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
