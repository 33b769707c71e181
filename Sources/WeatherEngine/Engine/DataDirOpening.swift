import EventLog
import Foundation
import WeatherDomain
import WeatherRuntime

/// A data dir opened for serving: locked, its log verified and replayed, a torn tail repaired, the log
/// open for appending. `open` does the work; the engine is built from what it returns.
package struct OpenedDataDir: Sendable {
    package let directory: DataDirectory
    /// Held until the engine's log service stops (`release` on every early exit).
    package let lock: DirectoryLock
    /// What replay rebuilt, with the log's end and the seq index.
    let replay: Replay.Result
    /// Where the log ends (after a restored newline or a cut tail).
    let position: LogWriter.Position
    /// The torn tail moved aside at start-up, recorded as `log.recovered`.
    let recovered: LogRecovered?
    /// The log, open for appending.
    let file: any LogFile

    /// Opens the data dir: lock, create, verify and replay the log, repair a torn tail, open for appending.
    ///
    /// - Parameters:
    ///   - socket: the socket a daemon is about to listen on, named in `LOCK` beside its pid.
    ///   - openLog: opens the log for appending; tests pass a fault-injecting file here.
    /// - Throws: `StartupError` with the message to print (the log is untouched unless a tail was repaired).
    package static func open(
        configuration: Configuration, clock: any RuntimeClock, logger: Logger, socket: String? = nil,
        openLog: (String) throws -> any LogFile = { try PosixLogFile(path: $0) }
    ) throws(StartupError) -> OpenedDataDir {
        let directory = DataDirectory(path: configuration.dataDirectory)
        let lock: DirectoryLock
        do {
            try directory.create()
            lock = try directory.lock(socket: socket)
            try directory.ensureLog()
            for change in try directory.tightenPermissions() { logger.warning(change) }
        } catch let error as LockError {
            if case .held = error { throw StartupError(error.description, kind: "data_dir_in_use") }
            throw StartupError(error.description)
        } catch {
            throw StartupError("cannot open the data dir \(directory.path): \(error)")
        }
        do {
            return try open(directory, lock: lock, configuration: configuration, clock: clock, logger: logger, openLog)
        } catch {
            lock.release()
            throw error
        }
    }

    private static func open(
        _ directory: DataDirectory, lock: DirectoryLock, configuration: Configuration, clock: any RuntimeClock,
        logger: Logger, _ openLog: (String) throws -> any LogFile
    ) throws(StartupError) -> OpenedDataDir {
        let replay: Replay.Result
        do {
            if try LogFiles.finishRollOver(directory: directory.path) {
                logger.warning("a roll-over of the log was interrupted; its new, empty active file is in place")
            }
            replay = try Replay.start(
                directory: directory.path, snapshots: SnapshotStore(directory: directory),
                commandWindow: configuration.commandWindow, logger: logger)
        } catch let damage as LogDamage {
            throw StartupError(
                "refusing to start: \(damage)", kind: "log_damaged",
                damage: .init(file: damage.path, line: damage.line, seq: damage.seq, offset: damage.offset))
        } catch let error as ReplayError {
            throw StartupError(
                "refusing to start: \(error)", kind: "log_damaged",
                damage: .init(file: error.path, line: nil, seq: error.seq, offset: error.offset))
        } catch {
            throw StartupError("refusing to start: \(error)")
        }
        var position = replay.outcome.position
        if replay.outcome.missingNewline {
            do {
                try TailRepair.restoreNewline(logPath: directory.logPath, length: position.length)
            } catch {
                throw StartupError("cannot restore the last newline of \(directory.logPath): \(error)")
            }
            position.length += 1
            logger.warning(
                "the log's last line (seq \(position.nextSeq - 1)) was intact but lacked its newline; restored it")
        }
        var recovered: LogRecovered?
        if let tail = replay.outcome.tail {
            do {
                recovered = try TailRepair.repair(logPath: directory.logPath, tail: tail, now: clock.timestamp())
            } catch {
                throw StartupError("cannot repair the torn end of \(directory.logPath): \(error)")
            }
            position.length = tail.offset
            logger.warning(
                "the log ended in a torn line (\(tail.reason.rawValue)); \(tail.length) bytes from offset "
                    + "\(tail.offset) were moved to \(recovered?.brokenCopy ?? "?")")
        }
        let file: any LogFile
        do {
            file = try openLog(directory.logPath)
        } catch {
            throw StartupError("cannot open \(directory.logPath) for appending: \(error)")
        }
        return OpenedDataDir(
            directory: directory, lock: lock, replay: replay, position: position, recovered: recovered, file: file)
    }
}

/// Why the service could not start; the message is printed on stderr, one JSON-RPC error line (id null)
/// on stdout, and the process exits non-zero.
package struct StartupError: EngineFailure, CustomStringConvertible {
    package var description: String
    /// The stable kind: `data_dir_in_use`, `log_damaged`, or `storage_failure` for anything else.
    package var kind: String
    /// Where the log is damaged, for `log_damaged`: the file, the line when known, the seq and the byte offset.
    package struct DamagePlace: Sendable, Equatable {
        package var file: String
        package var line: Int64?
        package var seq: Int64
        package var offset: Int64

        package init(file: String, line: Int64?, seq: Int64, offset: Int64) {
            self.file = file
            self.line = line
            self.seq = seq
            self.offset = offset
        }
    }

    package var damage: DamagePlace?

    package init(_ description: String, kind: String = "storage_failure", damage: DamagePlace? = nil) {
        self.description = description
        self.kind = kind
        self.damage = damage
    }

    package var message: String { "weatherd could not start: \(description)" }
}
