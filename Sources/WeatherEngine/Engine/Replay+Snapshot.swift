import EventLog
import WeatherDomain

extension Replay {
    /// The start-up replay: from the newest snapshot that fits the log, else from the start.
    ///
    /// Snapshots are tried newest first. One that cannot be read, fails its crc, has another format
    /// version, build or command window, or does not match the log (see `run(…from:…)`) is reported as
    /// a warning, removed, and the next older one is tried; when none fits, the whole log is replayed.
    /// Every path reaches the same state.
    ///
    /// - Throws: what `run` throws for the log itself (damage, unreadable payloads, I/O errors).
    public static func start(
        directory: String, snapshots: SnapshotStore, commandWindow: Int, catalog: EventCatalog = .standard,
        logger: Logger
    ) throws -> Result {
        let entries: [SnapshotStore.Entry]
        do {
            entries = try snapshots.list()
        } catch {
            logger.warning("cannot list the snapshots (\(error)); replaying the whole log")
            entries = []
        }
        for entry in entries {
            do {
                let base = try load(entry, snapshots: snapshots, commandWindow: commandWindow)
                return try run(
                    directory: directory, commandWindow: commandWindow, from: base, catalog: catalog, logger: logger)
            } catch  where error is SnapshotError || error is StorageError {
                discard(entry, snapshots: snapshots, because: "\(error)", entries: entries, logger: logger)
            }
        }
        return try run(directory: directory, commandWindow: commandWindow, catalog: catalog, logger: logger)
    }

    /// Warns about a snapshot start-up cannot use and removes it: it is derived data, and left in place it
    /// would keep the newest slots when new snapshots are pruned (one beyond the log's end after a power
    /// loss would, for instance, push out every snapshot written until the log grew past it).
    private static func discard(
        _ entry: SnapshotStore.Entry, snapshots: SnapshotStore, because reason: String,
        entries: [SnapshotStore.Entry], logger: Logger
    ) {
        logger.warning("ignoring the snapshot \(entry.path): \(reason); \(fallback(after: entry, in: entries))")
        do {
            try snapshots.remove(entry)
        } catch {
            logger.warning("could not remove the unusable snapshot \(entry.path): \(error)")
        }
    }

    private static func fallback(after entry: SnapshotStore.Entry, in entries: [SnapshotStore.Entry]) -> String {
        entries.last == entry ? "replaying the whole log" : "trying an older snapshot"
    }

    /// Reads and checks one snapshot file.
    private static func load(
        _ entry: SnapshotStore.Entry, snapshots: SnapshotStore, commandWindow: Int
    ) throws -> Base {
        let file = try SnapshotFile(bytes: try snapshots.read(entry.path))
        guard file.seq == entry.seq, file.seq >= 1 else {
            throw SnapshotError.mismatch("it covers seq \(file.seq) but is named for seq \(entry.seq)")
        }
        guard file.build == Engine.version else {
            throw SnapshotError.mismatch(
                "it was written by weatherd \(file.build), not by this build (\(Engine.version))")
        }
        guard file.commandWindow == commandWindow else {
            throw SnapshotError.mismatch(
                "it was taken with --command-window \(file.commandWindow), not \(commandWindow)")
        }
        let state: WeatherState
        do {
            state = try WeatherState(snapshot: file.state, commandWindow: commandWindow)
        } catch {
            throw SnapshotError.malformed(error.description)
        }
        guard state.lastSeq == file.seq else {
            throw SnapshotError.malformed("its state ends at seq \(state.lastSeq), not \(file.seq)")
        }
        return Base(state: state, chain: file.chain, index: file.index.prefix(through: file.seq))
    }
}
