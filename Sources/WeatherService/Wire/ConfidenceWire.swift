import Providers
import WeatherDomain
import WeatherEngine

extension ConfidenceAnswer {
    /// `{location, model, method, members?, days: [{date, members?, high, low, precipitation?,
    /// precipitationMembers?, wet?, label?}], hours: [{time, members?, temperature, wet?}], spread, labels, units,
    /// today, fetchedAt, source, stale, provider, attribution?}`: each spread `{p10, p25, p50, p75, p90}` (a
    /// percentile the source does not publish left out), in the reader's units; `wet` the share of members with
    /// precipitation (with MET Norway's percentiles, its probability of precipitation).
    var json: JSONValue {
        var object: [String: JSONValue] = [
            "location": WeatherFormatting.location(
                place, timezone: summary.timezone, utcOffsetSeconds: summary.utcOffsetSeconds),
            "model": .string(summary.model), "method": .string(summary.method.rawValue),
            "days": .array(summary.days.map { ConfidenceWire.day($0, units) }),
            "hours": .array(summary.hours.map { ConfidenceWire.hour($0, units) }),
            "spread": .string(ConfidenceWire.spreadNote(summary.method)), "labels": ConfidenceWire.labels(units),
            "units": WeatherFormatting.unitNames(units), "today": .string(today),
            "fetchedAt": .string(fetchedAt.description), "source": .string(source), "stale": .bool(stale),
            "provider": .string(provider),
        ]
        if let members = summary.members { object["members"] = .int(Int64(members)) }
        if let credit = WeatherFormatting.attribution(provider: provider) { object["attribution"] = .string(credit) }
        return .object(object)
    }

    /// One line for people: the place, the source, and each day's 10–90 % bands of its high, its wet members and
    /// its label, in the reader's units.
    var summaryLine: String {
        let name = place.name ?? place.key
        let source =
            summary.method == .members
            ? "\(summary.model) ensemble, \(summary.members.map { "\($0) members" } ?? "no members")"
            : "MET Norway's own percentiles"
        guard !summary.days.isEmpty else { return "\(name) (\(source)): no day the members reach." }
        let days = summary.days.map { day in
            var text =
                ForecastChanges.name(of: day.date, today: today) + " high "
                + ConfidenceWire.band(day.high, units)
            if let wet = day.wet {
                text +=
                    ", " + ConfidenceWire.percent(wet)
                    + (summary.method == .members ? " of members wet" : " chance of precipitation")
            }
            return text + ", " + (day.label.map { "\($0.rawValue) confidence" } ?? "too few members for a label")
        }
        return "\(name) (\(source)): " + days.joined(separator: "; ")
            + ". The 10–90 % range of the members, not a calibrated probability."
    }
}

extension ModelComparisonAnswer {
    /// `{location, models, days: [{date, models: [{model, high?, low?, precipitation?, condition?}], range: {high?,
    /// low?, precipitation?: {lowest, highest}}, furthest?: {model, by}, missing}], missingModels, units, today,
    /// fetchedAt, source, stale}`, in the reader's units.
    var json: JSONValue {
        .object([
            "location": WeatherFormatting.location(place, timezone: timezone, utcOffsetSeconds: utcOffsetSeconds),
            "models": .array(models.map(JSONValue.string)),
            "days": .array(days.map { ConfidenceWire.compared($0, units) }),
            "missingModels": .array(missingModels.map(JSONValue.string)),
            "units": WeatherFormatting.unitNames(units), "today": .string(today),
            "fetchedAt": .string(fetchedAt.description), "source": .string(source), "stale": .bool(stale),
        ])
    }

    /// One line for people: the place, and each day's range of the models' highs and lows and the model furthest
    /// from the others, then the models missing.
    var summaryLine: String {
        let name = place.name ?? place.key
        let unit = units.temperature.rawValue
        let days = days.map { day in
            var parts: [String] = []
            if let high = day.high { parts.append("highs \(ConfidenceWire.range(high, units)) \(unit)") }
            if let low = day.low { parts.append("lows \(ConfidenceWire.range(low, units)) \(unit)") }
            if let furthest = day.furthest { parts.append("\(furthest) furthest from the others") }
            return ForecastChanges.name(of: day.date, today: today) + " "
                + (parts.isEmpty ? "no model has it" : parts.joined(separator: ", "))
        }
        let missing = missingModels.isEmpty ? "" : " Missing at this place: \(missingModels.joined(separator: ", "))."
        return "\(name), \(models.count) models: " + days.joined(separator: "; ") + "." + missing
    }
}

extension AccuracyAnswer {
    /// `{location, today, from, providers: [{provider, name, leads: [{lead, high: {count, meanAbsoluteError?,
    /// bias?}, low: {…}, wetDay: {days, wetDays, hits, hitRate?, brier?}}]}], observed: {era5, era5t,
    /// weatherd-log}, pending, forecasts, minimumDays, minimumWetDays, wetDay, sentence, units, scanned, calls,
    /// warnings?}`: errors and biases in the reader's temperature unit (a difference: °F scaled, never offset).
    var json: JSONValue {
        var object: [String: JSONValue] = [
            "location": place.json, "today": .string(today), "from": .string(from),
            "providers": .array(providers.map { ConfidenceWire.provider($0, units) }),
            "observed": .object(
                Dictionary(
                    uniqueKeysWithValues: ObservedDay.Source.allCases.map {
                        ($0.rawValue, JSONValue.int(Int64(observed[$0] ?? 0)))
                    })),
            "pending": .int(Int64(pending)), "forecasts": .int(Int64(forecasts)),
            "minimumDays": .int(Int64(Verification.minimumDays)),
            "minimumWetDays": .int(Int64(Verification.minimumWetDays)),
            "wetDay": .string(
                "at least \(ConfidenceWire.plain(WeatherFormatting.precipitation(Verification.wetMillimetres, units))) "
                    + "\(units.precipitation.rawValue) in the day; called wet by a chance of at least "
                    + "\(Int(Verification.wetChance * 100)) %"),
            "sentence": .string(sentence), "units": WeatherFormatting.unitNames(units),
            "scanned": .int(scanned), "calls": .int(Int64(calls)),
        ]
        if !warnings.isEmpty { object["warnings"] = .array(warnings.map(JSONValue.string)) }
        return .object(object)
    }

    /// One line for people: the place, the sentence, and what observed the days.
    var summaryLine: String {
        let counts = ObservedDay.Source.allCases.compactMap { source in
            observed[source].map { "\($0) by \(source.rawValue)" }
        }
        let seen = counts.isEmpty ? "" : " Days observed: \(counts.joined(separator: ", "))."
        let waiting = pending > 0 ? " \(pending) past \(pending == 1 ? "day" : "days") not observed yet." : ""
        return "\(place.name ?? place.key): \(sentence)\(seen)\(waiting)"
    }
}

/// The wire's helpers for how sure forecasts are.
enum ConfidenceWire {
    /// What the percentiles are, by how they were made.
    static func spreadNote(_ method: EnsembleSummary.Method) -> String {
        switch method {
        case .members:
            "percentiles of the members (linear interpolation between order statistics): their spread, not a "
                + "calibrated probability"
        case .percentiles:
            "MET Norway's own 10th and 90th percentiles per step; a day's are those of its warmest and coolest steps, "
                + "its precipitation's the totals of the steps' least and most"
        }
    }

    /// The labels' thresholds, in the reader's units.
    static func labels(_ units: UnitChoice) -> JSONValue {
        let width = { (celsius: Double) in
            JSONValue.double(WeatherFormatting.round(units.temperature.difference(celsius: celsius)))
        }
        return .object([
            "high": .object([
                "maxBand": width(ConfidenceLabel.narrowBand), "maxWetShare": .double(ConfidenceLabel.agreeingDry),
                "minWetShare": .double(ConfidenceLabel.agreeingWet),
            ]),
            "low": .object([
                "minBand": width(ConfidenceLabel.wideBand),
                "splitWetShare": .array([.double(ConfidenceLabel.splitFrom), .double(ConfidenceLabel.splitTo)]),
            ]),
            "minimumMembers": .int(Int64(ConfidenceLabel.minimumMembers)),
        ])
    }

    /// `{p10, p25, p50, p75, p90}` of a temperature (`precipitation` false) or a precipitation, in `units`.
    static func spread(_ spread: Spread, precipitation: Bool = false, _ units: UnitChoice) -> JSONValue {
        let convert = { (value: Double) in
            precipitation
                ? WeatherFormatting.precipitation(value, units) : WeatherFormatting.temperature(value, units)
        }
        var object: [String: JSONValue] = [:]
        for (name, value) in [
            ("p10", spread.p10), ("p25", spread.p25), ("p50", spread.p50), ("p75", spread.p75), ("p90", spread.p90),
        ] {
            if let value { object[name] = .double(convert(value)) }
        }
        return .object(object)
    }

    static func day(_ day: ConfidenceDay, _ units: UnitChoice) -> JSONValue {
        var object: [String: JSONValue] = [
            "date": .string(day.date), "high": spread(day.high, units), "low": spread(day.low, units),
        ]
        if let members = day.members { object["members"] = .int(Int64(members)) }
        if let precipitation = day.precipitation {
            object["precipitation"] = spread(precipitation, precipitation: true, units)
        }
        if let count = day.precipitationMembers { object["precipitationMembers"] = .int(Int64(count)) }
        if let wet = day.wet { object["wet"] = .double(WeatherFormatting.round(wet)) }
        if let label = day.label { object["label"] = .string(label.rawValue) }
        return .object(object)
    }

    static func hour(_ hour: ConfidenceHour, _ units: UnitChoice) -> JSONValue {
        var object: [String: JSONValue] = [
            "time": .string(hour.time.description), "temperature": spread(hour.temperature, units),
        ]
        if let members = hour.members { object["members"] = .int(Int64(members)) }
        if let wet = hour.wet { object["wet"] = .double(WeatherFormatting.round(wet)) }
        return .object(object)
    }

    /// A forecast day or step with the spread of its date or hour (`spread: {…}`) added, when there is one.
    static func adding(_ spread: JSONValue?, to value: JSONValue) -> JSONValue {
        guard let spread, case .object(var object) = value else { return value }
        object["spread"] = spread
        return .object(object)
    }

    /// What a forecast's day carries of its spread: `{high: {p10, p90}, low: {p10, p90}, label?}`.
    static func forecastDay(_ day: ConfidenceDay, _ units: UnitChoice) -> JSONValue {
        var object: [String: JSONValue] = [
            "high": tenToNinety(day.high, units), "low": tenToNinety(day.low, units),
        ]
        if let label = day.label { object["label"] = .string(label.rawValue) }
        return .object(object)
    }

    /// `{p10, p90}` of a temperature in `units`, the ends the source has.
    static func tenToNinety(_ spread: Spread, _ units: UnitChoice) -> JSONValue {
        var object: [String: JSONValue] = [:]
        if let low = spread.p10 { object["p10"] = .double(WeatherFormatting.temperature(low, units)) }
        if let high = spread.p90 { object["p90"] = .double(WeatherFormatting.temperature(high, units)) }
        return .object(object)
    }

    /// `11–14 °C`: a temperature's 10–90 % band, whole degrees, for sentences.
    static func band(_ spread: Spread, _ units: UnitChoice) -> String {
        let degrees = { (value: Double?) in value.map { PastWire.degrees($0, units) } ?? "?" }
        return "\(degrees(spread.p10))–\(degrees(spread.p90)) \(units.temperature.rawValue)"
    }

    /// `10–13`: a range of temperatures, whole degrees.
    static func range(_ range: ComparedDay.Range, _ units: UnitChoice) -> String {
        "\(PastWire.degrees(range.lowest, units))–\(PastWire.degrees(range.highest, units))"
    }

    /// A number without a trailing `.0`: `1`, `0.04`.
    static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// `40 %`.
    static func percent(_ share: Double) -> String { "\(Int((share * 100).rounded())) %" }

    static func compared(_ day: ComparedDay, _ units: UnitChoice) -> JSONValue {
        var ranges: [String: JSONValue] = [:]
        let temperature = { (range: ComparedDay.Range) -> JSONValue in
            .object([
                "lowest": .double(WeatherFormatting.temperature(range.lowest, units)),
                "highest": .double(WeatherFormatting.temperature(range.highest, units)),
            ])
        }
        if let high = day.high { ranges["high"] = temperature(high) }
        if let low = day.low { ranges["low"] = temperature(low) }
        if let amount = day.precipitation {
            ranges["precipitation"] = .object([
                "lowest": .double(WeatherFormatting.precipitation(amount.lowest, units)),
                "highest": .double(WeatherFormatting.precipitation(amount.highest, units)),
            ])
        }
        var object: [String: JSONValue] = [
            "date": .string(day.date), "range": .object(ranges), "missing": .array(day.missing.map(JSONValue.string)),
            "models": .array(
                day.models.map { figures in
                    var item = WeatherFormatting.Quantities(units)
                    item.temperature("high", figures.day.high)
                    item.temperature("low", figures.day.low)
                    item.precipitation("precipitation", figures.day.precipitation)
                    item.object["model"] = .string(figures.model)
                    if let condition = figures.day.condition {
                        item.object["condition"] = WeatherFormatting.condition(condition, isDay: true)
                    }
                    return .object(item.object)
                }),
        ]
        if let furthest = day.furthest, let by = day.furthestBy {
            object["furthest"] = .object([
                "model": .string(furthest), "by": .double(PastWire.difference(by, units)),
            ])
        }
        return .object(object)
    }

    static func provider(_ score: ProviderScore, _ units: UnitChoice) -> JSONValue {
        let error = { (score: ErrorScore) -> JSONValue in
            var object: [String: JSONValue] = ["count": .int(Int64(score.count))]
            if let mae = score.meanAbsoluteError {
                object["meanAbsoluteError"] = .double(PastWire.difference(mae, units))
            }
            if let bias = score.bias { object["bias"] = .double(PastWire.difference(bias, units)) }
            return .object(object)
        }
        return .object([
            "provider": .string(score.provider), "name": .string(Verification.providerName(score.provider)),
            "leads": .array(
                score.leads.map { lead in
                    var wet: [String: JSONValue] = [
                        "days": .int(Int64(lead.wet.days)), "wetDays": .int(Int64(lead.wet.wetDays)),
                        "hits": .int(Int64(lead.wet.hits)),
                    ]
                    if let rate = lead.wet.hitRate { wet["hitRate"] = .double(WeatherFormatting.round(rate)) }
                    if let brier = lead.wet.brier { wet["brier"] = .double(Rounding.round(brier, decimals: 3)) }
                    return .object([
                        "lead": .int(Int64(lead.lead)), "high": error(lead.high), "low": error(lead.low),
                        "wetDay": .object(wet),
                    ])
                }),
        ])
    }
}
