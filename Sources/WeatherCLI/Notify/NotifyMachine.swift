import WeatherDomain

/// The decisions of `weatherd notify`, without D-Bus, processes or files: which alert to show, which
/// notification to replace or close, what to run. Its owner feeds it the log's events (`alert.raised` and
/// `warnings.fetched`, from `events/subscribe`), the end of the backlog and the clock's wake-ups, performs
/// the actions it returns, and tells it the ids the notification server gave.
///
/// Once only: an event at or before the cursor's seq is never acted on again. After a long absence (an alert
/// raised more than `freshness` before it is seen) only what is still in force is shown: an official warning
/// not yet expired nor cancelled by the end of the backlog; every other missed alert is passed over.
struct NotifyMachine: Sendable {
    /// What the owner does.
    enum Action: Sendable, Equatable {
        /// Shows `notice` on the desktop, in place of `replaces` (0: a new one); for an official warning,
        /// `thread` is its first message, whose notification id the owner reports with `shown`.
        case show(AlertNotice, replaces: UInt32, thread: String?)
        /// Closes a notification (`CloseNotification`).
        case close(UInt32)
        /// Runs the hook with the alert (its JSON in the reader's units).
        case run(AlertNotice, JSONValue)
    }

    /// How old a missed alert may be and still be shown: one hour.
    static let freshness: Int64 = 3_600_000
    /// How long a warning that gives no end stays shown, at most: a day.
    static let endless: Int64 = 86_400_000

    private(set) var cursor: NotifyCursor
    let desktop: Bool
    let hook: Bool
    let units: UnitChoice
    /// Whether the backlog has been read (`events/caughtUp`).
    private(set) var caughtUp = false
    /// Official warnings of the backlog raised long ago, by first message, held until the backlog's end.
    private var held: [String: (alert: RaisedAlert, thread: NotifyCursor.Thread)] = [:]
    /// The message ids of the last warnings fetch of each `source|key`: where a new thread's area is found.
    private var fetched: [String: Set<String>] = [:]

    init(cursor: NotifyCursor, desktop: Bool, hook: Bool, units: UnitChoice) {
        self.cursor = cursor
        self.desktop = desktop
        self.hook = hook
        self.units = units
    }

    /// An event of the log (`events/event`'s params: seq, type, data).
    mutating func event(_ event: JSONValue, now: Timestamp) -> [Action] {
        guard let seq = event["seq"]?.intValue, seq > cursor.seq else { return [] }
        cursor.seq = seq
        let data = event["data"] ?? .null
        switch event["type"]?.stringValue {
        case "alert.raised":
            do {
                return raised(try RaisedAlert(json: data), now: now)
            } catch {
                return []
            }
        case "warnings.fetched": return warningsFetched(data)
        default: return []
        }
    }

    /// The backlog has been read: the long-missed warnings still in force are shown now.
    mutating func backlogRead(now: Timestamp) -> [Action] {
        caughtUp = true
        let still = held.filter { now < $0.value.thread.until }.sorted {
            $0.value.alert.raisedAt < $1.value.alert.raisedAt
        }
        held = [:]
        return still.flatMap { tell($0.value.alert, thread: ($0.key, $0.value.thread)) } + expired(now: now)
    }

    /// The notification server's id for the thread `first`.
    mutating func shown(thread first: String, id: UInt32) {
        cursor.threads[first]?.notificationId = id
    }

    /// The warnings whose time is up are closed.
    mutating func expired(now: Timestamp) -> [Action] {
        let over = cursor.threads.filter { $0.value.until <= now }
        for first in over.keys { cursor.threads[first] = nil }
        return over.values.map(\.notificationId).filter { $0 != 0 }.sorted().map { .close($0) }
    }

    /// When the next shown warning expires.
    var nextExpiry: Timestamp? { cursor.threads.values.map(\.until).min() }

    /// Whether the cursor may be kept now: once the backlog is read, or while no long-missed warning is held
    /// back until its end (a cursor kept past one would pass it over after a restart).
    var cursorKeepable: Bool { caughtUp || held.isEmpty }

    private mutating func raised(_ alert: RaisedAlert, now: Timestamp) -> [Action] {
        let recent = now.milliseconds - alert.raisedAt.milliseconds <= Self.freshness
        guard alert.rule == .official else { return recent ? tell(alert, thread: nil) : [] }
        let warning = alert.details["warning"] ?? .null
        guard let id = warning["id"]?.stringValue else { return recent ? tell(alert, thread: nil) : [] }
        // A warning that gives no end (CAP makes `expires` optional) is closed a day after it was raised, unless a
        // cancel or a fetch without it closes it sooner.
        let until =
            (warning["ends"] ?? warning["expires"])?.stringValue.flatMap(Timestamp.init(rfc3339:))
            ?? Timestamp(milliseconds: alert.raisedAt.milliseconds + Self.endless)
        let first = alert.details["firstId"]?.stringValue ?? id
        let source = warning["source"]?.stringValue ?? ""
        guard now < until else { return [] }
        var thread =
            cursor.threads[first] ?? held[first]?.thread
            ?? NotifyCursor.Thread(notificationId: 0, source: source, messageIds: [], until: until)
        thread.messageIds.insert(id)
        thread.until = until
        if thread.area == nil {
            thread.area = fetched.first { $0.key.hasPrefix(source + "|") && $0.value.contains(id) }
                .map { String($0.key.dropFirst(source.count + 1)) }
        }
        if !recent && !caughtUp {
            held[first] = (alert, thread)
            return []
        }
        return tell(alert, thread: (first, thread))
    }

    /// Shows `alert` and runs the hook for it; an official warning's thread is kept to replace or close.
    private mutating func tell(_ alert: RaisedAlert, thread: (String, NotifyCursor.Thread)?) -> [Action] {
        let json = alert.json(in: units)
        let notice = AlertNotice(json)
        var actions: [Action] = []
        if let (first, value) = thread {
            let replaces = cursor.threads[first]?.notificationId ?? 0
            cursor.threads[first] = value
            if desktop { actions.append(.show(notice, replaces: replaces, thread: first)) }
        } else if desktop {
            actions.append(.show(notice, replaces: 0, thread: nil))
        }
        if hook { actions.append(.run(notice, json)) }
        return actions
    }

    /// A fetch of a source's warnings for an area: a thread it carried before and no longer carries (its last
    /// message cancelled, or expired) is closed, and so is one a message of the fetch cancels or declares over
    /// (a CAP document of the FOSS Public Alert Server keeps its cancels: `messageType` `cancel`, `responseType`
    /// `AllClear` or `urgency` `Past`); an update of a thread (a message replacing one of its own) joins it.
    private mutating func warningsFetched(_ data: JSONValue) -> [Action] {
        guard let source = data["source"]?.stringValue, let key = data["key"]?.stringValue else { return [] }
        let warnings = data["warnings"]?.arrayValue ?? []
        let ids = Set(warnings.compactMap { $0["id"]?.stringValue })
        fetched["\(source)|\(key)"] = ids
        if fetched.count > 1000 { fetched = ["\(source)|\(key)": ids] }
        var actions: [Action] = []
        func follow(_ thread: inout NotifyCursor.Thread) -> Bool {
            guard thread.source == source else { return true }
            for warning in warnings {
                let replaces = Set((warning["replaces"]?.arrayValue ?? []).compactMap(\.stringValue))
                if let id = warning["id"]?.stringValue, !replaces.isDisjoint(with: thread.messageIds) {
                    if Self.withdraws(warning) { return false }
                    thread.messageIds.insert(id)
                }
            }
            let carried = !ids.isDisjoint(with: thread.messageIds)
            if carried, thread.area == nil { thread.area = key }
            return carried || thread.area != key
        }
        for first in cursor.threads.keys.sorted() {
            guard var thread = cursor.threads[first] else { continue }
            if follow(&thread) {
                cursor.threads[first] = thread
            } else {
                cursor.threads[first] = nil
                if thread.notificationId != 0 { actions.append(.close(thread.notificationId)) }
            }
        }
        for first in held.keys.sorted() {
            guard var entry = held[first] else { continue }
            if follow(&entry.thread) {
                held[first] = entry
            } else {
                held[first] = nil
            }
        }
        return actions
    }

    /// Whether a recorded warning withdraws what it replaces rather than updating it.
    private static func withdraws(_ warning: JSONValue) -> Bool {
        if warning["messageType"]?.stringValue == OfficialWarning.MessageType.cancel.rawValue { return true }
        if warning["urgency"]?.stringValue?.lowercased() == "past" { return true }
        return (warning["responseTypes"]?.arrayValue ?? []).contains { $0.stringValue?.lowercased() == "allclear" }
    }
}
