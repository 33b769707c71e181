import WeatherDomain
import WeatherEngine

// The answers about weatherd's own state. A change answers its payload's `json`, the form the command
// ledger gives a repeated `commandId` (`CommandLedger`), so a repeat answers as the first call did.

/// A favorite added, removed or updated; null when the call changed nothing.
func favoriteJSON(_ favorite: Favorite?) -> JSONValue { favorite?.json ?? .null }

/// `history/clear`'s answer: the emptied history and how many entries it held.
func clearedJSON(_ count: Int64) -> JSONValue { CommandResult.cleared(count) }

extension [Favorite] {
    /// One page of the favorites as `{favorites, nextCursor?}`.
    func page(_ page: PageRequest) -> JSONValue { cut(page).json }

    /// One page of the favorites, and which of them it holds.
    func cut(_ page: PageRequest) -> Paging.Cut {
        Paging.cut(count: count, name: "favorites", limit: page.limit, offset: page.offset) { self[$0].json }
    }
}

extension [HistoryEntry] {
    /// One page of the search history as `{history, nextCursor?}`.
    func page(_ page: PageRequest) -> JSONValue {
        Paging.page(count: count, name: "history", limit: page.limit, offset: page.offset) { self[$0].json }
    }
}

extension RaisedAlerts {
    /// Every alert in its reader's units.
    var json: [JSONValue] { alerts.map { $0.json(in: units) } }

    /// One page of the alerts as `{alerts, nextCursor?}`, in their reader's units: the system `requested`
    /// whole when one is, else the settings'.
    func page(_ page: PageRequest, units requested: Units? = nil) -> JSONValue {
        let reader = requested?.choice ?? units
        return Paging.page(count: alerts.count, name: "alerts", limit: page.limit, offset: page.offset) {
            alerts[$0].json(in: reader)
        }
    }
}
