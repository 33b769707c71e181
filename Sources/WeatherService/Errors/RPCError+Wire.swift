import Providers
import WeatherDomain
import WeatherEngine

extension RPCError {
    /// What a face answers for `error`, thrown by `method`'s handler: an engine failure or a provider's with its
    /// kind, bad params as -32602, anything else -32603 with the detail in the log.
    static func wire(_ error: any Error, method: String, logger: Logger) -> RPCError {
        switch error {
        case let error as RPCError: return error
        case let error as any EngineFailure:
            let wire = RPCError(error)
            if wire == .internalError { logger.error("\(method) failed: \(error)") }
            return wire
        case let error as ProviderError: return RPCError(error)
        case let error as FieldError: return .invalidParams(error)
        case is CancellationError: return .cancelled
        default:
            logger.error("\(method) failed: \(error)")
            return .internalError
        }
    }
}
