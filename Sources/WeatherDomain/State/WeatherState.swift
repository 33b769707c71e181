/// All of weatherd's state: the fold of every event in the log.
///
/// Live, each slice is owned by its actor; this type is what replay builds, what `state/verify`
/// compares against, and what snapshots store (`snapshotJSON`).
package struct WeatherState: Sendable, Equatable {
    package var favorites = FavoritesState()
    package var history = HistoryState()
    package var settings = SettingsState()
    package var location = LocationState()
    package var cache = WeatherCache()
    package var alerts = AlertState()
    package var commands: CommandLedger
    /// The last `log.truncated`: the oldest part of the log that audit retention dropped (nil when none).
    package internal(set) var lastTruncation: LogTruncated?
    /// The seq of the last event folded in.
    package internal(set) var lastSeq: Int64 = 0
    /// Events of a type or version this build does not know, kept in the log and skipped here.
    package internal(set) var skippedEvents: [EventKind: Int] = [:]

    package init(commandWindow: Int = 100_000) { commands = CommandLedger(window: commandWindow) }

    /// Folds one event in.
    package mutating func apply(_ event: DomainEvent, seq: Int64, corr: String?) {
        favorites.apply(event)
        history.apply(event)
        settings.apply(event)
        location.apply(event)
        cache.apply(event)
        alerts.apply(event)
        commands.apply(event, corr: corr)
        if case .logTruncated(let truncation) = event { lastTruncation = truncation }
        lastSeq = seq
    }

    /// Counts an event that was kept but not understood.
    package mutating func skip(_ kind: EventKind, seq: Int64) {
        skippedEvents[kind, default: 0] += 1
        lastSeq = seq
    }

    /// The canonical form of every slice, keyed by slice name.
    package var json: JSONValue {
        .object([
            "favorites": favorites.json, "history": history.json, "settings": settings.json,
            "location": location.json, "cache": cache.json, "alerts": alerts.json, "commands": commands.json,
            "commandMethods": commands.methodsJSON,
        ])
    }
}

/// A 64-bit FNV-1a digest, printed as 16 hex digits: cheap, deterministic, good enough to compare states.
package enum Digest {
    package static func fnv1a(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let text = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
