import Dispatch
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPTransport {
    /// The most bytes of one answer's body weatherd reads unless told otherwise (`--max-body-bytes`): 16 MiB.
    package static let defaultMaxBodyBytes = 16 << 20

    /// The transport weatherd runs with: one URLSession GET per call, 30 s per request, at most `maxBodyBytes` of
    /// each body.
    ///
    /// The `FetchActor` enforces the overall deadline and the retries; this only turns URLSession's
    /// answers and errors into `HTTPResponse` and `TransportError`. A body whose `Content-Length` passes
    /// `maxBodyBytes`, or that passes it as it comes (chunked, or without a length), fails the call with `.tooLarge`
    /// at once, and its task is cancelled: no more of it is read or held. (With swift-corelibs-foundation the cancel
    /// waits for the session's work queue, which a body that comes faster than it can take in, such as one written
    /// without pause by a process on the same machine, keeps busy: the call still fails at once and what comes is
    /// dropped, but the connection is read until the cancel gets its turn.)
    ///
    /// Each transport has a URLSession of its own, made from `configuration` without a URL cache (weatherd keeps its
    /// own, and a URL cache would hold a copy of every body), and kept for the life of the process: make one.
    ///
    /// - Parameter idleTimeout: how long a request may go without a byte before URLSession gives it up; weatherd
    ///   passes its fetch deadline (`--upstream-timeout`), so an attempt ends by that deadline or a cancel, never
    ///   by a shorter limit of URLSession's own.
    package static func live(
        configuration: URLSessionConfiguration = .default, maxBodyBytes: Int = defaultMaxBodyBytes,
        idleTimeout: Duration = .seconds(30)
    ) -> HTTPTransport {
        let seconds = Double(idleTimeout.components.seconds) + Double(idleTimeout.components.attoseconds) / 1e18
        let own = configuration.copy() as? URLSessionConfiguration ?? configuration
        own.urlCache = nil
        // The session's own limits (60 s and 7 days by default) would end an attempt before the deadline.
        own.timeoutIntervalForRequest = seconds
        own.timeoutIntervalForResource = seconds
        let calls = DataTaskCalls()
        let session = URLSession(configuration: own, delegate: calls, delegateQueue: nil)
        return HTTPTransport { request throws(TransportError) in
            guard let url = URL(string: request.url) else {
                throw TransportError(.offline, "the base URL does not form a valid URL")
            }
            var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: seconds)
            urlRequest.httpMethod = "GET"
            for (name, value) in request.headers {
                urlRequest.setValue(value, forHTTPHeaderField: name)
            }
            return try await load(urlRequest, session: session, calls: calls, maxBodyBytes: maxBodyBytes).get()
        }
    }

    /// What `session.data(for:)` gives, except that the body is read only up to `maxBodyBytes` and that cancelling
    /// the calling task only schedules the URLSession task's cancel.
    ///
    /// `data(for:)` cancels its URLSession task inside the Swift task's cancellation handler, which runs
    /// holding that task's lock and waits for the session's work queue; when the answer is being handled
    /// on that queue at the same moment, the queue waits for the lock to resume the task, and both wait
    /// forever (swift-corelibs-foundation #5412, seen with Swift 6.3.1: a deadline or shutdown cutting
    /// a call just as its answer came in hung the process). Here the handler takes no lock but its own.
    ///
    /// `session` must have `calls` as its delegate, which hands each task's response, data and end to its call.
    static func load(
        _ request: URLRequest, session: URLSession, calls: DataTaskCalls, maxBodyBytes: Int
    ) async -> Result<HTTPResponse, TransportError> {
        let call = DataTaskCall(maxBodyBytes: maxBodyBytes)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let task = session.dataTask(with: request)
                calls.add(call, for: task)
                call.start(task, continuation)
            }
        } onCancel: {
            call.cancel()
        }
    }

    /// The transport error for a URLSession failure, with a fixed detail.
    ///
    /// The detail never comes from the error itself: URLError messages and user info carry the
    /// failing URL, whose query holds the API key.
    static func transportError(for error: URLError) -> TransportError {
        switch error.code {
        case .timedOut:
            TransportError(.timeout, "no answer within the time allowed")
        case .cannotConnectToHost:
            TransportError(.offline, "connection refused")
        case .notConnectedToInternet:
            TransportError(.offline, "not connected to the internet")
        case .cannotFindHost, .dnsLookupFailed:
            TransportError(.offline, "host name not found")
        case .networkConnectionLost:
            TransportError(.offline, "connection lost")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            TransportError(.offline, "TLS handshake failed")
        case .cancelled:
            TransportError(.offline, "request cancelled")
        default:
            TransportError(.offline, "URL error \(error.code.rawValue)")
        }
    }

    /// The transport error for whatever URLSession failed with.
    static func transportError(for error: any Error) -> TransportError {
        (error as? URLError).map { transportError(for: $0) } ?? TransportError(.offline, "the request failed")
    }
}

/// The session delegate of a live transport: hands each data task's response, body bytes and end to its call.
///
/// URLSession calls it on the session's delegate queue, one callback at a time.
final class DataTaskCalls: NSObject, URLSessionDataDelegate, Sendable {
    private let calls = Mutex([Int: DataTaskCall]())

    /// Routes `task`'s callbacks to `call`, until the task ends.
    func add(_ call: DataTaskCall, for task: URLSessionDataTask) {
        calls.withLock { $0[task.taskIdentifier] = call }
    }

    private func call(of task: URLSessionTask) -> DataTaskCall? { calls.withLock { $0[task.taskIdentifier] } }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @Sendable @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        // swift-corelibs-foundation ignores the disposition: the call cancels the task itself.
        let proceed = call(of: dataTask)?.received(response) ?? true
        completionHandler(proceed ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        call(of: dataTask)?.received(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let call = calls.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        call?.finished(response: task.response, error: error)
    }
}

/// One URLSession data task: its answer as it comes, and whether its caller was cancelled, whichever came first.
final class DataTaskCall: Sendable {
    private enum Phase {
        case waiting
        case running(URLSessionDataTask)
        case cancelled
    }

    private struct State {
        var phase = Phase.waiting
        /// The caller, until it is answered: by the task's end, or at once when the body passes the limit.
        var caller: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>?
        var body: [UInt8] = []
    }

    private let maxBodyBytes: Int
    private let state = Mutex(State())
    /// Set once URLSession has ended the task: the task is gone from the session's registry then, and cancelling
    /// it would stop the process (swift-corelibs-foundation's `TaskRegistry` traps on a task it no longer holds),
    /// so a cancel that comes later does nothing.
    private let done = Mutex(false)

    init(maxBodyBytes: Int) { self.maxBodyBytes = maxBodyBytes }

    /// Starts `task` for `caller`, and cancels it at once when the caller was cancelled before it existed.
    func start(_ task: URLSessionDataTask, _ caller: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>) {
        let cancelled = state.withLock { state -> Bool in
            state.caller = caller
            guard case .waiting = state.phase else { return true }
            state.phase = .running(task)
            return false
        }
        task.resume()
        if cancelled { cancelLater(task) }
    }

    /// Cancels the task, now or once it starts.
    func cancel() {
        let task = state.withLock { state -> URLSessionDataTask? in
            defer { state.phase = .cancelled }
            guard case .running(let task) = state.phase else { return nil }
            return task
        }
        if let task { cancelLater(task) }
    }

    /// Takes the response's head; false (and the caller answered `.tooLarge`) when its `Content-Length` passes the
    /// limit.
    func received(_ response: URLResponse) -> Bool {
        let length = response.expectedContentLength
        guard length > Int64(maxBodyBytes) else {
            if length > 0 { state.withLock { $0.body.reserveCapacity(Int(length)) } }
            return true
        }
        tooLarge()
        return false
    }

    /// Takes the next bytes of the body, or answers the caller `.tooLarge` when they pass the limit.
    func received(_ data: Data) {
        let over = state.withLock { state -> Bool in
            // After a `.tooLarge`, whatever still comes before the cancel takes effect is dropped.
            guard state.caller != nil else { return false }
            guard state.body.count + data.count <= maxBodyBytes else { return true }
            state.body.append(contentsOf: data)
            return false
        }
        if over { tooLarge() }
    }

    /// Answers the caller with the response or the error URLSession ended the task with, unless it was answered.
    func finished(response: URLResponse?, error: (any Error)?) {
        done.withLock { $0 = true }
        let (caller, body) = state.withLock { state in
            defer {
                state.caller = nil
                state.body = []
            }
            return (state.caller, state.body)
        }
        guard let caller else { return }
        if let error {
            caller.resume(returning: .failure(HTTPTransport.transportError(for: error)))
        } else if let http = response as? HTTPURLResponse {
            var headers: [String: String] = [:]
            for (key, value) in http.allHeaderFields {
                guard let name = key.base as? String else { continue }
                headers[name.lowercased()] = value as? String ?? String(describing: value)
            }
            caller.resume(returning: .success(HTTPResponse(status: http.statusCode, headers: headers, body: body)))
        } else if response != nil {
            caller.resume(returning: .failure(TransportError(.offline, "the answer was not HTTP")))
        } else {
            caller.resume(returning: .failure(HTTPTransport.transportError(for: URLError(.badServerResponse))))
        }
    }

    /// Answers the caller `.tooLarge` now, and cancels the task so that no more of the body is read.
    private func tooLarge() {
        let (caller, task) = state.withLock { state in
            defer {
                state.caller = nil
                state.body = []
            }
            guard case .running(let task) = state.phase else { return (state.caller, URLSessionDataTask?.none) }
            return (state.caller, task)
        }
        caller?.resume(returning: .failure(TransportError.tooLarge(limit: maxBodyBytes)))
        if let task { cancelLater(task) }
    }

    /// `URLSessionTask.cancel` waits for the session's work queue: never while a lock is held (see `load`), nor on
    /// the session's delegate queue; and not at all once the task has ended.
    private func cancelLater(_ task: URLSessionDataTask) {
        DispatchQueue.global().async { [self] in
            guard !done.withLock({ $0 }) else { return }
            task.cancel()
        }
    }
}
