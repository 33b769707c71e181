import Providers
import Testing

@Suite("Provider error mapping")
struct ErrorMappingTests {
    @Test(
        "errors come from the HTTP status alone",
        arguments: [
            (401, ProviderError.Kind.unauthorized), (403, .unauthorized), (404, .notFound), (429, .rateLimited),
            (500, .upstreamError), (502, .upstreamError), (503, .upstreamError), (418, .badUpstreamResponse),
        ])
    func status(code: Int, kind: ProviderError.Kind) throws {
        let error = try #require(ProviderError.from(status: code, headers: [:], provider: "openweathermap"))
        #expect(error.kind == kind)
        #expect(error.status == code)
        #expect(ProviderError.from(status: 200, headers: [:], provider: "x") == nil)
    }

    @Test("429 honours Retry-After, and only upstream errors, time-outs and offline are retried")
    func retryAfter() throws {
        let error = try #require(ProviderError.from(status: 429, headers: ["retry-after": " 120 "], provider: "x"))
        #expect(error.retryAfterSeconds == 120)
        #expect(!error.isRetryable)
        #expect(ProviderError.from(TransportError(.offline, "refused"), provider: "x").isRetryable)
        #expect(ProviderError.from(TransportError(.timeout, "slow"), provider: "x").kind == .timeout)
        #expect(ProviderError.from(status: 503, headers: [:], provider: "x")?.isRetryable == true)
    }
}
