extension PastFetched {
    /// `{count, low, high, mean, precipitation, windMax, condition}`: one array per variable the days have a
    /// value of (a variable without any is left out), day `i` being `from` plus `i` days; conditions are WMO
    /// codes.
    static func columns(_ days: [PastDay]) -> JSONValue {
        var object: [String: JSONValue] = ["count": .int(Int64(days.count))]
        put(days.map(\.low), "low", into: &object)
        put(days.map(\.high), "high", into: &object)
        put(days.map(\.mean), "mean", into: &object)
        put(days.map(\.precipitation), "precipitation", into: &object)
        put(days.map(\.windMax), "windMax", into: &object)
        putCodes(days.map(\.condition), into: &object)
        return .object(object)
    }

    /// `{time, temperature, precipitation, windSpeed, condition}`, one array per variable as for days.
    static func columns(_ hours: [PastHour]) -> JSONValue {
        var object: [String: JSONValue] = ["time": .array(hours.map { .string($0.time) })]
        put(hours.map(\.temperature), "temperature", into: &object)
        put(hours.map(\.precipitation), "precipitation", into: &object)
        put(hours.map(\.windSpeed), "windSpeed", into: &object)
        putCodes(hours.map(\.condition), into: &object)
        return .object(object)
    }

    static func days(_ r: FieldReader, from: String) throws(FieldError) -> [PastDay] {
        let count = Int(try r.int("count"))
        guard let first = LocalDate.dayNumber(of: from) else {
            throw FieldError(path: "data.from", problem: "must be a date such as 2025-05-10")
        }
        let low = try column(r, "low", count)
        let high = try column(r, "high", count)
        let mean = try column(r, "mean", count)
        let precipitation = try column(r, "precipitation", count)
        let windMax = try column(r, "windMax", count)
        let codes = try column(r, "condition", count)
        return (0..<count).map { index in
            let (year, month, day) = CivilDate.fromDays(first + Int64(index))
            return PastDay(
                date: dateText(year, month, day), low: low[index], high: high[index],
                precipitation: precipitation[index], mean: mean[index], windMax: windMax[index],
                condition: codes[index].map { .wmo(Int64($0)) })
        }
    }

    static func hours(_ r: FieldReader) throws(FieldError) -> [PastHour] {
        let times = try r.elements("time") { item, path throws(FieldError) in
            guard let text = item.stringValue else { throw FieldError(path: path, problem: "must be a string") }
            return text
        }
        let temperature = try column(r, "temperature", times.count)
        let precipitation = try column(r, "precipitation", times.count)
        let windSpeed = try column(r, "windSpeed", times.count)
        let codes = try column(r, "condition", times.count)
        return times.indices.map { index in
            PastHour(
                time: times[index], temperature: temperature[index], precipitation: precipitation[index],
                windSpeed: windSpeed[index], condition: codes[index].map { .wmo(Int64($0)) })
        }
    }

    /// `YYYY-MM-DD`.
    package static func dateText(_ year: Int64, _ month: Int64, _ day: Int64) -> String {
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    static func put(_ values: [Double?], _ name: String, into object: inout [String: JSONValue]) {
        guard values.contains(where: { $0 != nil }) else { return }
        object[name] = .array(values.map { $0.map(JSONValue.double) ?? .null })
    }

    private static func putCodes(_ values: [Condition?], into object: inout [String: JSONValue]) {
        guard values.contains(where: { $0 != nil }) else { return }
        object["condition"] = .array(values.map { $0.map { .int($0.code) } ?? .null })
    }

    /// A column `count` long; all nils when absent (also `models.fetched`'s columns).
    static func column(_ r: FieldReader, _ name: String, _ count: Int) throws(FieldError) -> [Double?] {
        guard r.has(name) else { return Array(repeating: nil, count: count) }
        let values = try r.elements(name) { item, path throws(FieldError) -> Double? in
            if case .null = item { return nil }
            guard let number = item.doubleValue else {
                throw FieldError(path: path, problem: "must be a number or null")
            }
            return number
        }
        guard values.count == count else {
            throw FieldError(path: "\(r.path).\(name)", problem: "has \(values.count) values, not \(count)")
        }
        return values
    }
}
