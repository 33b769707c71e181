/// One deterministic model's figures for a local day, canonical units (°C, mm); nil where the model gave none.
package struct ModelDay: Sendable, Equatable {
    package var date: String
    package var high: Double?
    package var low: Double?
    package var precipitation: Double?
    package var condition: Condition?

    package init(date: String, high: Double?, low: Double?, precipitation: Double? = nil, condition: Condition? = nil) {
        self.date = date
        self.high = high
        self.low = low
        self.precipitation = precipitation
        self.condition = condition
    }

    /// Whether the model gave nothing for the day.
    package var isEmpty: Bool { high == nil && low == nil && precipitation == nil && condition == nil }
}

/// The days of several deterministic models at one place, as one call to Open-Meteo's forecast API with
/// `models=` answered: each model's days on the same local dates, a model missing at the point (or in a field)
/// holding nils there.
package struct ModelsPage: Sendable, Equatable {
    /// The models asked for, in order.
    package var models: [String]
    package var timezone: String?
    package var utcOffsetSeconds: Int64
    /// The local dates, in order.
    package var dates: [String]
    /// Each asked model's days on `dates`, in the order of `models`.
    package var runs: [[ModelDay]]

    package init(models: [String], timezone: String?, utcOffsetSeconds: Int64, dates: [String], runs: [[ModelDay]]) {
        self.models = models
        self.timezone = timezone
        self.utcOffsetSeconds = utcOffsetSeconds
        self.dates = dates
        self.runs = runs
    }

    /// `{models, timezone?, utcOffsetSeconds, dates, runs: [{model, high?, low?, precipitation?, condition?}]}`:
    /// each run's figures in columns on `dates` (a column without any value left out, so a model missing at the
    /// point has none); conditions are WMO codes.
    package func write(into object: inout [String: JSONValue]) {
        object["models"] = .array(models.map(JSONValue.string))
        if let timezone { object["timezone"] = .string(timezone) }
        object["utcOffsetSeconds"] = .int(utcOffsetSeconds)
        object["dates"] = .array(dates.map(JSONValue.string))
        object["runs"] = .array(
            zip(models, runs).map { model, days in
                var run: [String: JSONValue] = ["model": .string(model)]
                PastFetched.put(days.map(\.high), "high", into: &run)
                PastFetched.put(days.map(\.low), "low", into: &run)
                PastFetched.put(days.map(\.precipitation), "precipitation", into: &run)
                if days.contains(where: { $0.condition != nil }) {
                    run["condition"] = .array(days.map { $0.condition.map { .int($0.code) } ?? .null })
                }
                return .object(run)
            })
    }

    package var json: JSONValue {
        var object: [String: JSONValue] = [:]
        write(into: &object)
        return .object(object)
    }

    /// Reads the form `write(into:)` writes; without `runs` (a payload compaction stripped), every model has
    /// empty days.
    package init(_ r: FieldReader) throws(FieldError) {
        let models = try r.optionalStrings("models") ?? []
        let dates = try r.optionalStrings("dates") ?? []
        var runs = Array(repeating: dates.map { ModelDay(date: $0, high: nil, low: nil) }, count: models.count)
        if r.has("runs") {
            let read = try r.elements("runs") { item, path throws(FieldError) in
                let run = try FieldReader(item, path: path)
                let column = { (name: String) throws(FieldError) -> [Double?] in
                    try PastFetched.column(run, name, dates.count)
                }
                let (high, low, amount, codes) = (
                    try column("high"), try column("low"), try column("precipitation"), try column("condition")
                )
                let days = dates.indices.map { index in
                    ModelDay(
                        date: dates[index], high: high[index], low: low[index], precipitation: amount[index],
                        condition: codes[index].flatMap { Int64(exactly: $0) }.map(Condition.wmo))
                }
                return (try run.string("model"), days)
            }
            for (model, days) in read {
                if let index = models.firstIndex(of: model) { runs[index] = days }
            }
        }
        self.init(
            models: models, timezone: try r.optionalString("timezone"),
            utcOffsetSeconds: try r.int("utcOffsetSeconds"), dates: dates, runs: runs)
    }
}

/// Payload of `models.fetched`: one call for several deterministic models' days at a place (Open-Meteo's forecast
/// API with `models=`), and the audit facts of the call.
package struct ModelsFetched: Sendable, Equatable {
    /// The place's cache key.
    package var key: String
    package var page: ModelsPage
    package var call: UpstreamCall

    package init(key: String, page: ModelsPage, call: UpstreamCall) {
        self.key = key
        self.page = page
        self.call = call
    }

    /// The fetch kind, in `weather.fetch_failed`.
    package static let fetchKind = "models"

    /// The cache entry a fetch fills: `<model>,<model>…|<key>`.
    package static func entry(models: [String], key: String) -> String {
        "\(models.joined(separator: ","))|\(key)"
    }

    package var entry: String { Self.entry(models: page.models, key: key) }

    /// What log compaction may strip once a later fetch of the same entry replaced this one.
    package static let payloadMembers: Set<String> = ["runs"]
    /// The member naming the cache entry a fetch fills.
    package static let entryMembers = ["entry"]

    package var json: JSONValue {
        var object: [String: JSONValue] = ["key": .string(key), "entry": .string(entry)]
        page.write(into: &object)
        call.write(into: &object)
        return .object(object)
    }

    package init(json: JSONValue) throws(FieldError) {
        let r = try FieldReader(json, path: "data")
        self.init(key: try r.string("key"), page: try ModelsPage(r), call: try UpstreamCall(r))
    }
}
