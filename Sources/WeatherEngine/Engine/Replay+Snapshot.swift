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
    package static func start(
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
        let truncated = (try? LogManifest.read(directory: directory))?.truncated
        for entry in entries {
            if let truncated, entry.seq <= truncated.throughSeq {
                discard(
                    entry, snapshots: snapshots,
                    because: "it predates the log's first seq \(truncated.throughSeq + 1) (older seqs were dropped)",
                    entries: entries, logger: logger)
                continue
            }
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
        return try base(of: file, commandWindow: commandWindow)
    }

    private static func base(of file: SnapshotFile, commandWindow: Int, anyWindow: Bool = false) throws -> Base {
        let state: WeatherState
        do {
            state = try WeatherState(
                snapshot: file.state, commandWindow: commandWindow, keepingNewestCommands: anyWindow)
        } catch {
            throw SnapshotError.malformed(error.description)
        }
        guard state.lastSeq == file.seq else {
            throw SnapshotError.malformed("its state ends at seq \(state.lastSeq), not \(file.seq)")
        }
        return Base(state: state, chain: file.chain, index: file.index.prefix(through: file.seq))
    }

    /// The state a truncated log continues from: `log-base.json`, or nil when the log was never truncated.
    ///
    /// Unlike a snapshot, the base is the only record of the dropped events' state, so it is used whatever
    /// build wrote it (its format version must still be this one's) and whatever the command window (a
    /// smaller window forgets the oldest commands).
    ///
    /// - Throws: `LogDamage` (`manifest`) when the base is missing, unreadable, or not past the dropped seqs.
    static func truncationBase(directory: String, commandWindow: Int) throws -> Base? {
        guard let truncated = try LogManifest.read(directory: directory).truncated else { return nil }
        let path = LogTruncation.basePath(in: directory)
        func damage(_ detail: String) -> LogDamage {
            LogDamage(
                path: path, line: 1, seq: truncated.throughSeq + 1, offset: 0,
                problem: LineProblem(
                    .badSeq,
                    "the log's seqs 1…\(truncated.throughSeq) were dropped by --retain-audit, and the state they "
                        + "built, kept in \(LogTruncation.baseName), \(detail)"), kind: .manifest)
        }
        let bytes: [UInt8]
        do {
            guard let read = try LogTruncation.readBase(directory: directory) else { throw damage("is missing") }
            bytes = read
        } catch let error as StorageError {
            throw damage("cannot be read: \(error)")
        }
        do {
            let file = try SnapshotFile(bytes: bytes)
            guard file.seq > truncated.throughSeq else {
                throw SnapshotError.mismatch("covers seq \(file.seq), not a seq after the dropped ones")
            }
            return try base(of: file, commandWindow: commandWindow, anyWindow: true)
        } catch let error as SnapshotError {
            throw damage("is not usable: \(error)")
        }
    }
}
