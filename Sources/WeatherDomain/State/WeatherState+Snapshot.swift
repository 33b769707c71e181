extension WeatherState {
    /// The whole state in the form a snapshot stores: every slice's canonical `json`, the last seq folded
    /// in and the counts of skipped events.
    ///
    /// `{"lastSeq": S, "skippedEvents": [{"type": T, "v": V, "count": N}, …], "slices": {…}}`, where
    /// `slices` is exactly `json`, and `lastTruncation` (the last `log.truncated` payload) once there was one.
    package var snapshotJSON: JSONValue {
        let skipped = skippedEvents.sorted { ($0.key.type, $0.key.version) < ($1.key.type, $1.key.version) }
        var object: [String: JSONValue] = [
            "lastSeq": .int(lastSeq), "slices": json,
            "skippedEvents": .array(
                skipped.map {
                    .object([
                        "type": .string($0.key.type), "v": .int(Int64($0.key.version)), "count": .int(Int64($0.value)),
                    ])
                }),
        ]
        if let lastTruncation { object["lastTruncation"] = lastTruncation.json }
        return .object(object)
    }

    /// Rebuilds the state from `snapshotJSON`, exactly: `WeatherState(snapshot: s.snapshotJSON, …) == s`.
    ///
    /// - Parameters:
    ///   - commandWindow: the window the snapshot's command ledger was built with.
    ///   - keepingNewestCommands: forget the oldest commands beyond `commandWindow` rather than refuse a
    ///     ledger built with a larger window (for `log-base.json`, which no replay can rebuild).
    /// - Throws: `FieldError` naming the member that does not match the snapshot form.
    package init(snapshot: JSONValue, commandWindow: Int, keepingNewestCommands: Bool = false) throws(FieldError) {
        let reader = try FieldReader(snapshot, path: "state")
        let slices = try FieldReader(reader.members["slices"], path: "state.slices")
        self.init(commandWindow: commandWindow)
        favorites = try FavoritesState(json: slices.members["favorites"] ?? .null, path: "state.slices.favorites")
        history = try HistoryState(json: slices.members["history"] ?? .null, path: "state.slices.history")
        settings = try SettingsState(json: slices.members["settings"] ?? .null, path: "state.slices.settings")
        location = try LocationState(json: slices.members["location"] ?? .null, path: "state.slices.location")
        cache = try WeatherCache(json: slices.members["cache"] ?? .null, path: "state.slices.cache")
        alerts = try AlertState(json: slices.members["alerts"] ?? .null, path: "state.slices.alerts")
        commands = try CommandLedger(
            json: slices.members["commands"] ?? .null, methods: slices.members["commandMethods"] ?? .null,
            window: commandWindow, keepingNewest: keepingNewestCommands, path: "state.slices.commands",
            methodsPath: "state.slices.commandMethods")
        lastSeq = try reader.int("lastSeq")
        if let truncation = reader.members["lastTruncation"] { lastTruncation = try LogTruncated(json: truncation) }
        let skipped = try reader.elements("skippedEvents") { item, itemPath throws(FieldError) in
            let entry = try FieldReader(item, path: itemPath)
            return (EventKind(try entry.string("type"), Int(try entry.int("v"))), Int(try entry.int("count")))
        }
        skippedEvents = Dictionary(skipped) { first, _ in first }
    }
}
