import Foundation
import Testing

@testable import Providers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("URLSession transport")
struct URLSessionTransportTests {
    @Test("a refused connection is offline, and the detail holds no part of the URL", .timeLimit(.minutes(1)))
    func refused() async throws {
        let transport = HTTPTransport.live()
        do {
            let response = try await transport.get(HTTPRequest(url: "http://127.0.0.1:1/data/2.5/weather?appid=SECRET"))
            Issue.record("port 1 answered HTTP \(response.status)")
        } catch {
            #expect(error.kind == .offline)
            #expect(error.detail == "connection refused")
            #expect(!error.detail.contains("SECRET"))
            #expect(!error.detail.contains("127.0.0.1"))
            #expect(!error.detail.contains("?"))
        }
    }

    @Test(
        "URLError codes map to time-out or offline",
        arguments: [
            (URLError.Code.timedOut, TransportError.Kind.timeout), (.cannotConnectToHost, .offline),
            (.notConnectedToInternet, .offline), (.cannotFindHost, .offline), (.dnsLookupFailed, .offline),
            (.networkConnectionLost, .offline), (.secureConnectionFailed, .offline), (.badServerResponse, .offline),
        ])
    func mapping(code: URLError.Code, kind: TransportError.Kind) throws {
        let failingURL = try #require(URL(string: "https://api.openweathermap.org/data/2.5/weather?appid=SECRET"))
        let error = URLError(
            code,
            userInfo: [
                NSURLErrorFailingURLErrorKey: failingURL,
                NSLocalizedDescriptionKey: "Could not connect to \(failingURL.absoluteString)",
            ])
        let mapped = HTTPTransport.transportError(for: error)
        #expect(mapped.kind == kind)
        #expect(!mapped.detail.contains("SECRET"))
        #expect(!mapped.detail.contains("appid"))
        #expect(!mapped.detail.isEmpty)
    }
}
