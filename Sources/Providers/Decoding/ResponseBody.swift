import WeatherDomain

/// Reading provider bodies: JSON parsing, times and arrays, with errors that name the member.
///
/// Decoders work in `FieldError` (the domain's "which member, what is wrong") and each provider
/// turns it into `ProviderError.badBody` once, at its public entry point.
enum ResponseBody {
    /// The JSON value of a 2xx body; anything else (an HTML error page from a proxy) is a bad body.
    static func parse(_ body: [UInt8], provider: String) throws(ProviderError) -> JSONValue {
        do throws(JSONParseError) {
            return try JSONValue.parse(body)
        } catch {
            throw .badBody(provider, "not JSON: \(error.message)")
        }
    }

    /// Parses a 2xx body and reads it with `read`, turning a `FieldError` into the provider's bad-body error.
    static func decode<Value>(
        _ body: [UInt8], provider: String, _ read: (JSONValue) throws(FieldError) -> Value
    ) throws(ProviderError) -> Value {
        let root = try parse(body, provider: provider)
        do throws(FieldError) {
            return try read(root)
        } catch {
            throw .badBody(provider, error.description)
        }
    }

    /// The JSON value of a 2xx body of Open-Meteo's; its `{"error":true,"reason":…}` is a bad body too.
    static func openMeteo(_ body: [UInt8], provider: String) throws(ProviderError) -> JSONValue {
        let root = try parse(body, provider: provider)
        if root["error"]?.boolValue == true {
            throw .badBody(provider, "error: \(root["reason"]?.stringValue ?? "no reason given")")
        }
        return root
    }

    /// `decode` for a body of Open-Meteo's: its `{"error":true}` is a bad body before `read` sees it.
    static func decodeOpenMeteo<Value>(
        _ body: [UInt8], provider: String, _ read: (JSONValue) throws(FieldError) -> Value
    ) throws(ProviderError) -> Value {
        let root = try openMeteo(body, provider: provider)
        do throws(FieldError) {
            return try read(root)
        } catch {
            throw .badBody(provider, error.description)
        }
    }

    /// Unix seconds (a number), or an ISO 8601 time or date.
    ///
    /// Open-Meteo sends local wall-clock strings without an offset (`2025-05-10T12:45`,
    /// `2025-05-10`) unless asked for `timeformat=unixtime`; they are local to `utcOffsetSeconds`, the one
    /// offset of its answer, for every time in it: a forecast across a change of daylight saving time
    /// keeps the offset valid when it was fetched (so its 28 March sunrise in Berlin, fetched on 26 March,
    /// reads 05:50 for the 06:50 Berlin's clocks show), and read at that offset the instant is right.
    static func time(_ value: JSONValue?, path: String, utcOffsetSeconds: Int64) throws(FieldError) -> Timestamp {
        switch value {
        case .int(let seconds)?:
            return try unixSeconds(Double(seconds), path: path)
        case .double(let seconds)?:
            return try unixSeconds(seconds, path: path)
        case .string(let text)?:
            if let absolute = Timestamp(rfc3339: text) { return absolute }
            let suffix: String? =
                switch text.utf8.count {
                case 10: "T00:00:00Z"
                case 16: ":00Z"
                case 19: "Z"
                default: nil
                }
            guard let suffix, let wallClock = Timestamp(rfc3339: text + suffix) else {
                throw FieldError(
                    path: path, problem: "must be unix seconds or an ISO 8601 time such as 2025-05-10T12:45")
            }
            return Timestamp(milliseconds: wallClock.milliseconds - utcOffsetSeconds * 1000)
        case nil, .null?:
            throw FieldError(path: path, problem: "is required")
        default:
            throw FieldError(path: path, problem: "must be unix seconds or an ISO 8601 time")
        }
    }

    private static func unixSeconds(_ seconds: Double, path: String) throws(FieldError) -> Timestamp {
        // About ±292 million years either side of 1970 fit in Int64 milliseconds; a sane bound is far smaller.
        guard seconds.isFinite, abs(seconds) < 1e13 else {
            throw FieldError(path: path, problem: "is not a plausible unix time")
        }
        return Timestamp(milliseconds: Int64((seconds * 1000).rounded()))
    }

    /// The local calendar date (`YYYY-MM-DD`) of a daily entry: a date string, or unix seconds of local midnight.
    ///
    /// Open-Meteo puts every day's midnight at the one offset of its answer (valid when it was fetched),
    /// even across a change of daylight saving time, so the date is read back at that offset.
    static func localDate(_ value: JSONValue?, path: String, utcOffsetSeconds: Int64) throws(FieldError) -> String {
        if case .string(let text)? = value, text.utf8.count == 10 {
            guard Timestamp(rfc3339: text + "T00:00:00Z") != nil else {
                throw FieldError(path: path, problem: "must be a date such as 2025-05-10")
            }
            return text
        }
        let time = try time(value, path: path, utcOffsetSeconds: utcOffsetSeconds)
        return LocalDate.string(time, zone: .fixed(utcOffsetSeconds))
    }

    /// An array member; nil when absent or null.
    static func optionalArray(_ reader: FieldReader, _ key: String) throws(FieldError) -> [JSONValue]? {
        switch reader.members[key] {
        case nil, .null?: return nil
        case .array(let items)?: return items
        default: throw FieldError(path: "\(reader.path).\(key)", problem: "must be an array")
        }
    }

    /// An array member that must be present.
    static func array(_ reader: FieldReader, _ key: String) throws(FieldError) -> [JSONValue] {
        guard let items = try optionalArray(reader, key) else {
            throw FieldError(path: "\(reader.path).\(key)", problem: "is required")
        }
        return items
    }

    /// A column of numbers or nulls (Open-Meteo's hourly and daily variables), `count` long.
    ///
    /// Nulls are kept: Open-Meteo sends them where a model has no value for that hour.
    static func numbers(_ reader: FieldReader, _ key: String, count: Int) throws(FieldError) -> [Double?]? {
        guard let items = try optionalArray(reader, key) else { return nil }
        let path = "\(reader.path).\(key)"
        guard items.count == count else {
            throw FieldError(path: path, problem: "has \(items.count) values where time has \(count)")
        }
        var out: [Double?] = []
        out.reserveCapacity(count)
        for (index, item) in items.enumerated() {
            switch item {
            case .null: out.append(nil)
            default:
                guard let number = item.doubleValue else {
                    throw FieldError(path: "\(path)[\(index)]", problem: "must be a number or null")
                }
                out.append(number)
            }
        }
        return out
    }

    /// The first element of an array, which must be an object, as a reader; nil when the array is empty.
    static func firstObject(_ items: [JSONValue], path: String) throws(FieldError) -> FieldReader? {
        guard let first = items.first else { return nil }
        return try FieldReader(first, path: "\(path)[0]")
    }
}

/// A temperature unit an upstream may answer in.
enum TemperatureUnit: Sendable {
    case celsius, fahrenheit, kelvin

    /// Open-Meteo's unit label (`°C`, `°F`); nil means what weatherd asked for, °C.
    init(label: String?, path: String) throws(FieldError) {
        switch label {
        case nil, "°C", "C": self = .celsius
        case "°F", "F": self = .fahrenheit
        case "K": self = .kelvin
        case let other?: throw FieldError(path: path, problem: "is an unknown temperature unit \"\(other)\"")
        }
    }

    /// The value in °C, weatherd's canonical unit.
    func celsius(_ value: Double) -> Double {
        switch self {
        case .celsius: value
        case .fahrenheit: (value - 32) * 5 / 9
        case .kelvin: value - 273.15
        }
    }
}

/// A speed unit an upstream may answer in.
enum SpeedUnit: Sendable {
    case metresPerSecond, kilometresPerHour, milesPerHour, knots

    /// Open-Meteo's unit label (`m/s`, `km/h`, `mph`, `kn`); nil means what weatherd asked for, m/s.
    init(label: String?, path: String) throws(FieldError) {
        switch label {
        case nil, "m/s", "ms": self = .metresPerSecond
        case "km/h", "kmh": self = .kilometresPerHour
        case "mph": self = .milesPerHour
        case "kn", "kt": self = .knots
        case let other?: throw FieldError(path: path, problem: "is an unknown speed unit \"\(other)\"")
        }
    }

    /// The value in m/s, weatherd's canonical unit.
    func metresPerSecond(_ value: Double) -> Double {
        switch self {
        case .metresPerSecond: value
        case .kilometresPerHour: value / 3.6
        case .milesPerHour: value * 0.44704
        case .knots: value * 0.514444
        }
    }
}
