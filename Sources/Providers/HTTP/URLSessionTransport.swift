import Dispatch
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPTransport {
    /// The transport weatherd runs with: one URLSession GET per call, 30 s per request.
    ///
    /// The `FetchActor` enforces the overall deadline and the retries; this only turns URLSession's
    /// answers and errors into `HTTPResponse` and `TransportError`.
    package static func live(session: URLSession = .shared) -> HTTPTransport {
        HTTPTransport { request throws(TransportError) in
            guard let url = URL(string: request.url) else {
                throw TransportError(.offline, "the base URL does not form a valid URL")
            }
            var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 30)
            urlRequest.httpMethod = "GET"
            for (name, value) in request.headers {
                urlRequest.setValue(value, forHTTPHeaderField: name)
            }
            let data: Data
            let response: URLResponse
            switch await load(urlRequest, session: session) {
            case .success(let answer): (data, response) = answer
            case .failure(let error as URLError): throw transportError(for: error)
            case .failure: throw TransportError(.offline, "the request failed")
            }
            guard let http = response as? HTTPURLResponse else {
                throw TransportError(.offline, "the answer was not HTTP")
            }
            var headers: [String: String] = [:]
            for (key, value) in http.allHeaderFields {
                guard let name = key.base as? String else { continue }
                headers[name.lowercased()] = value as? String ?? String(describing: value)
            }
            return HTTPResponse(status: http.statusCode, headers: headers, body: [UInt8](data))
        }
    }

    /// What `session.data(for:)` gives, except that cancelling the calling task only schedules the
    /// URLSession task's cancel.
    ///
    /// `data(for:)` cancels its URLSession task inside the Swift task's cancellation handler, which runs
    /// holding that task's lock and waits for the session's work queue; when the answer is being handled
    /// on that queue at the same moment, the queue waits for the lock to resume the task, and both wait
    /// forever (swift-corelibs-foundation #5412, seen with Swift 6.3.1: a deadline or shutdown cutting
    /// a call just as its answer came in hung the process). Here the handler takes no lock but its own.
    static func load(_ request: URLRequest, session: URLSession) async -> Result<(Data, URLResponse), any Error> {
        let call = DataTaskCall()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    call.finished()
                    if let error {
                        continuation.resume(returning: .failure(error))
                    } else if let response {
                        continuation.resume(returning: .success((data ?? Data(), response)))
                    } else {
                        continuation.resume(returning: .failure(URLError(.badServerResponse)))
                    }
                }
                call.start(task)
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
            TransportError(.timeout, "no answer within 30 s")
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
}

/// One URLSession data task and whether its caller was cancelled, whichever came first.
private final class DataTaskCall: Sendable {
    private enum State {
        case waiting
        case running(URLSessionDataTask)
        case cancelled
    }

    private let state = Mutex(State.waiting)
    /// Set once URLSession has handed over the answer: the task is gone from the session's registry then, and
    /// cancelling it would stop the process (swift-corelibs-foundation's `TaskRegistry` traps on a task it no
    /// longer holds), so a cancel that comes later does nothing.
    private let done = Mutex(false)

    /// Records that URLSession delivered the answer or the error.
    func finished() { done.withLock { $0 = true } }

    /// Starts `task`, and cancels it at once when the caller was cancelled before it existed.
    func start(_ task: URLSessionDataTask) {
        let cancelled = state.withLock { state -> Bool in
            guard case .waiting = state else { return true }
            state = .running(task)
            return false
        }
        task.resume()
        if cancelled { cancelLater(task) }
    }

    /// Cancels the task, now or once it starts.
    func cancel() {
        let task = state.withLock { state -> URLSessionDataTask? in
            defer { state = .cancelled }
            guard case .running(let task) = state else { return nil }
            return task
        }
        if let task { cancelLater(task) }
    }

    /// `URLSessionTask.cancel` waits for the session's work queue: never while a lock is held (see `load`); and
    /// not at all once the answer was delivered.
    private func cancelLater(_ task: URLSessionDataTask) {
        DispatchQueue.global().async { [self] in
            guard !done.withLock({ $0 }) else { return }
            task.cancel()
        }
    }
}
