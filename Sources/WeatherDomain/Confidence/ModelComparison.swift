/// How several deterministic models agree on one local day: each model's figures, the range of each figure over
/// the models that gave it, the model furthest from the others, and the models missing.
package struct ComparedDay: Sendable, Equatable {
    /// The lowest and highest value of a figure over the models that gave it.
    package struct Range: Sendable, Equatable {
        package var lowest: Double
        package var highest: Double

        package init(lowest: Double, highest: Double) {
            self.lowest = lowest
            self.highest = highest
        }

        /// The range of `values`; nil for none.
        package init?(_ values: [Double]) {
            guard let lowest = values.min(), let highest = values.max() else { return nil }
            self.init(lowest: lowest, highest: highest)
        }

        package var width: Double { highest - lowest }
    }

    /// One model's figures for the day.
    package struct Figures: Sendable, Equatable {
        package var model: String
        package var day: ModelDay
    }

    package var date: String
    /// The models' figures, in the order the models were asked for (a missing model's figures are nil).
    package var models: [Figures]
    package var high: Range?
    package var low: Range?
    package var precipitation: Range?
    /// The model whose high and low lie furthest from the others' means (`ModelComparison.furthest`); nil with
    /// fewer than three models giving both.
    package var furthest: String?
    /// How far, °C: the distance of its high from the others' mean high plus that of its low.
    package var furthestBy: Double?
    /// The models that gave no high or no low for the day.
    package var missing: [String]
}

/// The agreement of deterministic models, computed from a `ModelsPage`.
package enum ModelComparison {
    /// The default models compared: ECMWF IFS 0.25°, NOAA GFS, DWD ICON, Environment Canada's GEM and the UK Met
    /// Office, each `_seamless` where Open-Meteo blends a model's global and regional runs. Open-Meteo's
    /// `best_match` is never among them: it is itself one of these, chosen per place.
    package static let defaultModels = [
        "ecmwf_ifs025", "gfs_seamless", "icon_seamless", "gem_seamless", "ukmo_seamless",
    ]
    /// The most models one comparison asks for.
    package static let maxModels = 8
    /// The fewest models with a day's high and low for a furthest model to be named.
    package static let minimumForFurthest = 3

    /// Checks a list of model names: 2 to `maxModels` distinct Open-Meteo identifiers (lower-case letters, digits
    /// and `_`), never `best_match`.
    ///
    /// - Throws: `FieldError` at `path` naming the problem.
    package static func validate(_ models: [String], path: String) throws(FieldError) {
        guard (2...maxModels).contains(models.count) else {
            throw FieldError(path: path, problem: "must name 2 to \(maxModels) models")
        }
        for model in models {
            guard isModelName(model) else {
                throw FieldError(
                    path: path, problem: "has \"\(model)\", not a model name (lower-case letters, digits and _)")
            }
            if model == "best_match" {
                throw FieldError(
                    path: path, problem: "cannot hold best_match: it is one of the others, chosen per place")
            }
        }
        guard Set(models).count == models.count else {
            throw FieldError(path: path, problem: "names a model twice")
        }
    }

    /// Whether `name` looks like an Open-Meteo model identifier: 2 to 64 of lower-case letters, digits and `_`.
    package static func isModelName(_ name: String) -> Bool {
        (2...64).contains(name.utf8.count)
            && name.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F }
    }

    /// Each of `page`'s dates compared across its models.
    package static func days(_ page: ModelsPage) -> [ComparedDay] {
        page.dates.indices.map { index in
            let models = zip(page.models, page.runs).map { model, days in
                ComparedDay.Figures(
                    model: model,
                    day: index < days.count ? days[index] : ModelDay(date: page.dates[index], high: nil, low: nil))
            }
            let (name, distance) = furthest(models.map { ($0.model, $0.day.high, $0.day.low) })
            return ComparedDay(
                date: page.dates[index], models: models, high: .init(models.compactMap(\.day.high)),
                low: .init(models.compactMap(\.day.low)), precipitation: .init(models.compactMap(\.day.precipitation)),
                furthest: name, furthestBy: distance,
                missing: models.filter { $0.day.high == nil || $0.day.low == nil }.map(\.model))
        }
    }

    /// The model whose high and low lie furthest from the mean high and low of the other models (the sum of the two
    /// distances), among the models that gave both; the first on a tie; nil with fewer than
    /// `minimumForFurthest` such models.
    package static func furthest(_ models: [(String, Double?, Double?)]) -> (String?, Double?) {
        let complete = models.compactMap { name, high, low in high.flatMap { high in low.map { (name, high, $0) } } }
        guard complete.count >= minimumForFurthest else { return (nil, nil) }
        var best: (String, Double)?
        for (index, model) in complete.enumerated() {
            let others = complete.enumerated().filter { $0.offset != index }.map(\.element)
            let meanHigh = others.map(\.1).reduce(0, +) / Double(others.count)
            let meanLow = others.map(\.2).reduce(0, +) / Double(others.count)
            let distance = abs(model.1 - meanHigh) + abs(model.2 - meanLow)
            if best.map({ distance > $0.1 + 1e-9 }) ?? true { best = (model.0, distance) }
        }
        return (best?.0, best?.1)
    }
}
