/// The part of the offline cache for how sure forecasts are: the last ensemble spread per (model, place) and the
/// last comparison of models per (models, place), folded from `ensemble.fetched` and `models.fetched` (and an
/// `upstream.not_modified` of either, which makes the entry fresh again).
///
/// Each map keeps at most `capacity` entries, the one fetched longest ago dropped first (in replay and snapshots
/// alike, since it follows the fetch times).
package struct ConfidenceCache: Sendable, Equatable {
    /// How many entries each map keeps.
    package static let capacity = 200

    /// `<model>|<key>` → the last spread (`ensemble.fetched`).
    package internal(set) var ensembles: [String: Cached<EnsembleSummary>] = [:]
    /// `<models>|<key>` → the last comparison page (`models.fetched`).
    package internal(set) var comparisons: [String: Cached<ModelsPage>] = [:]

    package init() {}

    /// Folds one event; every other event changes nothing.
    package mutating func apply(_ event: DomainEvent) {
        switch event {
        case .ensembleFetched(let fetched):
            ensembles[fetched.entry] = Cached(
                value: fetched.summary, fetchedAt: fetched.call.at, provider: fetched.call.provider)
            WeatherCache.trim(&ensembles, to: Self.capacity)
        case .modelsFetched(let fetched):
            comparisons[fetched.entry] = Cached(
                value: fetched.page, fetchedAt: fetched.call.at, provider: fetched.call.provider)
            WeatherCache.trim(&comparisons, to: Self.capacity)
        case .notModified(let confirmed) where confirmed.kind == EnsembleFetched.fetchKind:
            ensembles[confirmed.key]?.fetchedAt = confirmed.call.at
        case .notModified(let confirmed) where confirmed.kind == ModelsFetched.fetchKind:
            comparisons[confirmed.key]?.fetchedAt = confirmed.call.at
        default:
            break
        }
    }

    /// How far from a forecast's fetch a cached ensemble spread may have been fetched to be taken as that
    /// forecast's: a day.
    package static let spreadReach: Int64 = 86_400_000

    /// The spread a forecast at the place `key`, fetched at `time`, carries: its own (`report.spread`, published in
    /// the same answer), else the place's spread of the ensemble `model` cached from a fetch within `spreadReach`
    /// of `time`; nil otherwise.
    ///
    /// The one rule for what a forecast's days and hours carry (the `±`, the chart's band, a bar's labels) and for
    /// the `forecast_change` alert's low confidence. Reading it makes no call.
    package func spread(carriedBy report: ForecastReport, key: String, model: String, around time: Timestamp)
        -> EnsembleSummary?
    {
        if let own = report.spread { return own }
        guard let cached = ensembles[EnsembleFetched.entry(model: model, key: key)],
            abs(time.milliseconds - cached.fetchedAt.milliseconds) < Self.spreadReach
        else { return nil }
        return cached.value
    }

    /// `{ensembles, comparisons}`, each entry `{fetchedAt, provider, value}`: the canonical form of snapshots.
    package var json: JSONValue {
        func entries<V>(_ map: [String: Cached<V>], _ value: (V) -> JSONValue) -> JSONValue {
            .object(
                map.mapValues {
                    .object([
                        "fetchedAt": .string($0.fetchedAt.description), "provider": .string($0.provider),
                        "value": value($0.value),
                    ])
                })
        }
        return .object(["ensembles": entries(ensembles, \.json), "comparisons": entries(comparisons, \.json)])
    }

    /// Reads the canonical form; nil or absent (a snapshot written before it existed) is empty.
    package init(json: JSONValue?, path: String) throws(FieldError) {
        let r = try FieldReader(json, path: path, allowAbsent: true)
        func entries<V>(_ name: String, _ read: (FieldReader) throws(FieldError) -> V) throws(FieldError)
            -> [String: Cached<V>]
        {
            guard r.has(name) else { return [:] }
            return try r.values(name) { item, itemPath throws(FieldError) in
                let entry = try FieldReader(item, path: itemPath)
                return Cached(
                    value: try read(try FieldReader(entry.members["value"], path: "\(itemPath).value")),
                    fetchedAt: try entry.timestamp("fetchedAt"), provider: try entry.string("provider"))
            }
        }
        ensembles = try entries("ensembles") { value throws(FieldError) in try EnsembleSummary(value) }
        comparisons = try entries("comparisons") { value throws(FieldError) in try ModelsPage(value) }
    }
}
