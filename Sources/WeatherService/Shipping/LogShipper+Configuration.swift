import EventLog
import Foundation
import WeatherEngine

extension LogShipper {
    /// The shipper `--nats` asks for, or nil without it: the data dir's log id (made now if it has none) and the
    /// credentials read from their file.
    ///
    /// - Throws: `StorageError` when the log id cannot be read or written, `NATSError` when the credentials file
    ///   cannot be read or is wrong.
    package static func configured(engine: Engine, configuration: Configuration) throws -> LogShipper? {
        guard let url = configuration.nats else { return nil }
        let logID = try LogIdentity.ensure(directory: configuration.dataDirectory)
        var credentials: NATSCredentials?
        if let path = configuration.natsCredentials {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw NATSError.credentials("\(path) cannot be read")
            }
            credentials = try NATSCredentials(parsing: String(decoding: data, as: UTF8.self))
        }
        return LogShipper(
            engine: engine,
            settings: Settings(
                url: url, stream: configuration.natsStream, subjectPrefix: configuration.natsSubjectPrefix,
                logID: logID, credentials: credentials))
    }
}
