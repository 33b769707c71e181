import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPTransport {
    /// The transport weatherd runs with: one URLSession GET per call, 30 s per request.
    ///
    /// The `FetchActor` enforces the overall deadline and the retries; this only turns URLSession's
    /// answers and errors into `HTTPResponse` and `TransportError`.
    public static func live(session: URLSession = .shared) -> HTTPTransport {
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
            do {
                (data, response) = try await session.data(for: urlRequest)
            } catch let error as URLError {
                throw transportError(for: error)
            } catch {
                throw TransportError(.offline, "the request failed")
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
