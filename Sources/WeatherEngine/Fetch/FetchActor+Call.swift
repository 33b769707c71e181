import Providers
import WeatherDomain
import WeatherRuntime

extension FetchActor {
    /// Makes the call, with retries and backoff inside the deadline, auditing every attempt.
    func call(
        kind: String, key: String, cause: String, request: ProviderRequest, source: String,
        conditional: (entry: Cached<FetchedValue>, lastModified: String)?, decode: @escaping Decode
    ) async -> Result<Cached<FetchedValue>, FetchFailure> {
        var conditionalHeaders = request.headers
        if let conditional { conditionalHeaders["If-Modified-Since"] = conditional.lastModified }
        let headers = conditionalHeaders
        let deadline = clock.deadline(after: policy.deadline)
        var attempt: Int64 = 0
        while true {
            attempt += 1
            if let refused = await waitForToken(before: deadline) { return .failure(refused) }
            let started = clock.now
            let transport = self.transport
            let outcome: Result<HTTPResponse, TransportError> = await withDeadline(deadline, clock: clock) {
                do throws(TransportError) {
                    return .success(try await transport.get(HTTPRequest(url: request.url, headers: headers)))
                } catch {
                    return .failure(error)
                }
            } onTimeout: {
                .failure(TransportError(.timeout, "no answer within the deadline"))
            }
            let latency = started.duration(to: clock.now).milliseconds
            counts.calls += 1
            let at = clock.timestamp()
            let attemptNumber = attempt
            let providerName = source
            let validity = (try? outcome.get()).map { HTTPValidity(headers: $0.headers, receivedAt: at) }
            let audit = { (status: Int64?, bytes: Int64) in
                UpstreamCall(
                    provider: providerName, url: request.auditURL, status: status, latencyMs: latency,
                    bytes: bytes, attempt: attemptNumber, at: at, expiresAt: validity?.expiresAt,
                    lastModified: validity?.lastModified)
            }
            let result = Self.interpret(
                outcome, provider: source, notFoundIsAnswer: request.notFoundIsAnswer,
                notModified: conditional.map { conditional in
                    { call in
                        (conditional.entry.value, .notModified(NotModified(kind: kind, key: key, call: call)))
                    }
                }, decode: decode, call: audit
            ) { error, answered in
                // What a failed answer said about its freshness means nothing: only a success is kept.
                var call = answered
                (call.expiresAt, call.lastModified) = (nil, nil)
                let failed = FetchFailed(
                    key: key, kind: kind, call: call, error: error.kind.rawValue, message: error.message,
                    retryAfterSeconds: error.retryAfterSeconds)
                return kind == "geocode" ? .geocodeFailed(failed) : .weatherFetchFailed(failed)
            }
            do {
                let submission = try await cache.submit(cause: cause, corr: nil) { _ in [result.event] }
                _ = try await cache.commit(submission)
            } catch {
                return .failure(FetchFailure(error: error))
            }
            switch result.outcome {
            case .success(let value):
                return .success(Cached(value: value, fetchedAt: at, provider: source))
            case .failure(let error):
                counts.failures += 1
                let backoff =
                    FetchPolicy.backoff(first: policy.backoff, failures: Int(attempt), cap: policy.backoff * 1024)
                    * Double.random(in: 0.5...1.5)
                guard error.isRetryable, attempt < Int64(policy.maxAttempts), clock.now.advanced(by: backoff) < deadline
                else { return .failure(FetchFailure(error: error)) }
                do {
                    try await clock.sleep(for: backoff)
                } catch {
                    return .failure(FetchFailure(error: CancellationError()))
                }
            }
        }
    }

    /// Takes a token of the rate limit, waiting on the clock for one when the bucket is empty.
    ///
    /// - Returns: nil with a token taken; the failure when none comes before `deadline`, or the wait is cancelled.
    private func waitForToken(before deadline: RuntimeInstant) async -> FetchFailure? {
        while true {
            let wait = bucket.take(now: clock.timestamp())
            guard wait > 0 else { return nil }
            guard clock.now.advanced(by: .milliseconds(wait)) < deadline else {
                return FetchFailure(
                    error: ProviderError(
                        .rateLimited, "weatherd's own limit of \(policy.callsPerMinute) calls a minute is reached.",
                        advice: "Try again in \(wait / 1000 + 1) s."))
            }
            do {
                try await clock.sleep(for: .milliseconds(wait))
            } catch {
                return FetchFailure(error: CancellationError())
            }
        }
    }

    /// Turns a transport outcome into the value or error and the event that audits it; a 404 goes to `decode`
    /// when the request reads it as an answer (`notFoundIsAnswer`).
    private static func interpret(
        _ outcome: Result<HTTPResponse, TransportError>, provider: String, notFoundIsAnswer: Bool,
        notModified: ((UpstreamCall) -> (FetchedValue, DomainEvent))?, decode: Decode,
        call: (Int64?, Int64) -> UpstreamCall, failed: (ProviderError, UpstreamCall) -> DomainEvent
    ) -> (outcome: Result<FetchedValue, ProviderError>, event: DomainEvent) {
        switch outcome {
        case .failure(let transportError):
            let error = ProviderError.from(transportError, provider: provider)
            return (.failure(error), failed(error, call(nil, 0)))
        case .success(let response):
            let audit = call(Int64(response.status), Int64(response.body.count))
            // A 304 answers a conditional call only: the cached answer stands, and its body is not logged again.
            if response.status == 304, let notModified {
                let (value, event) = notModified(audit)
                return (.success(value), event)
            }
            if !(notFoundIsAnswer && response.status == 404),
                let error = ProviderError.from(status: response.status, headers: response.headers, provider: provider)
            {
                return (.failure(error), failed(error, audit))
            }
            do throws(ProviderError) {
                let (value, event) = try decode(response.body, audit)
                return (.success(value), event)
            } catch {
                return (.failure(error), failed(error, audit))
            }
        }
    }
}
