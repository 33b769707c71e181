import EventLog
import WeatherEngine

extension LogShipper {
    /// The shipping `--nats` asks for, or nil without it: the data dir's log id (made now if it has none) and the
    /// credentials read from their file; read before the engine starts, so a wrong file stops `serve` at once.
    ///
    /// - Throws: `StorageError` when the log id cannot be read or written, `NATSError` when the credentials file
    ///   cannot be read or is wrong.
    package static func settings(for configuration: Configuration) throws -> Settings? {
        guard let url = configuration.nats else { return nil }
        let logID = try LogIdentity.ensure(directory: configuration.dataDirectory)
        return Settings(
            url: url, stream: configuration.natsStream, subjectPrefix: configuration.natsSubjectPrefix, logID: logID,
            credentials: try NATSCredentials.load(path: configuration.natsCredentials))
    }
}
