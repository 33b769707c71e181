import Providers
import Testing
import WeatherDomain

@Suite("An answer's own freshness: Expires, Cache-Control, Last-Modified")
struct HTTPValidityTests {
    static let received = Timestamp(milliseconds: 784_111_777_000)  // Sun, 06 Nov 1994 08:49:37 GMT

    @Test("the three HTTP-date forms read as the same instant; anything else is no date")
    func dates() {
        for text in ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"] {
            #expect(HTTPValidity.date(text) == Self.received, "\(text)")
        }
        #expect(HTTPValidity.date("Thu, 27 Nov 2026 10:05:00 GMT") == Timestamp(rfc3339: "2026-11-27T10:05:00Z"))
        #expect(HTTPValidity.date("Thursday, 27-Nov-26 10:05:00 GMT") == Timestamp(rfc3339: "2026-11-27T10:05:00Z"))
        for text in ["0", "-1", "", "Sun, 06 Nov 1994 08:49:37 CET", "Sun, 32 Nov 1994 08:49:37 GMT", "tomorrow"] {
            #expect(HTTPValidity.date(text) == nil, "\(text)")
        }
    }

    @Test("max-age less Age wins over Expires; no-cache, no-store and a bad Expires are stale at once")
    func freshness() {
        let later = Timestamp(milliseconds: Self.received.milliseconds + 3_600_000)
        let expires = HTTPValidity(headers: ["expires": "Sun, 06 Nov 1994 09:49:37 GMT"], receivedAt: Self.received)
        #expect(expires.expiresAt == later)
        #expect(expires.isFresh(at: Self.received))
        #expect(!expires.isFresh(at: later))
        let maxAge = HTTPValidity(
            headers: [
                "cache-control": "public, max-age=600", "age": "100", "expires": "Sun, 06 Nov 1994 09:49:37 GMT",
            ],
            receivedAt: Self.received)
        #expect(maxAge.expiresAt == Timestamp(milliseconds: Self.received.milliseconds + 500_000))
        for headers in [["cache-control": "no-cache"], ["cache-control": "No-Store"], ["expires": "0"]] {
            #expect(HTTPValidity(headers: headers, receivedAt: Self.received).expiresAt == Self.received)
        }
        let none = HTTPValidity(headers: [:], receivedAt: Self.received)
        #expect(none.expiresAt == nil)
        #expect(!none.isFresh(at: Self.received), "no expiry is never fresh by itself: the caller's TTL decides")
    }

    @Test("If-Modified-Since repeats Last-Modified byte for byte; without one, no condition")
    func conditional() {
        let sent = "Fri, 27 Nov 2026 08:13:27 GMT"
        let validity = HTTPValidity(headers: ["last-modified": sent], receivedAt: Self.received)
        #expect(validity.lastModified == sent)
        #expect(validity.conditionalHeaders == ["If-Modified-Since": sent])
        #expect(HTTPValidity(headers: [:], receivedAt: Self.received).conditionalHeaders.isEmpty)
    }
}
