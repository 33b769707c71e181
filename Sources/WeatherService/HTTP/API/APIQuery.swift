import WeatherDomain
import WeatherWire

/// A `/v1` request's query as JSON-RPC params: `?city=Berlin&days=3&hourly` is
/// `{"city": "Berlin", "days": 3, "hourly": true}`.
///
/// A member is a number, a boolean or a list only where a method reads it so, by its name; anything else is
/// a string, so a city named `1984` stays one. A list is comma-separated or repeated (`types=a,b` or
/// `types=a&types=b`); any other member given twice is refused.
enum APIQuery {
    static let numbers: Set<String> = ["lat", "lon", "days", "maxAgeSeconds", "limit", "afterSeq"]
    static let booleans: Set<String> = ["hourly", "autoLocation", "withWeather", "notify"]
    static let lists: Set<String> = ["types", "models"]

    static func params(_ target: HTTPTarget) throws(RPCError) -> [String: JSONValue] {
        var params: [String: JSONValue] = [:]
        for (name, value) in target.query {
            if lists.contains(name) {
                let items = (value ?? "").split(separator: ",").map { JSONValue.string(String($0)) }
                params[name] = .array((params[name]?.arrayValue ?? []) + items)
                continue
            }
            guard params[name] == nil else { throw .invalidParams("query.\(name) is given twice") }
            params[name] = try Self.value(name, value ?? "")
        }
        return params
    }

    private static func value(_ name: String, _ text: String) throws(RPCError) -> JSONValue {
        if numbers.contains(name) {
            if let integer = Int64(text) { return .int(integer) }
            // Decimal only: Double(_:) would take "nan", "inf" and hexadecimal too.
            guard text.allSatisfy({ "0123456789-.eE".contains($0) }), let number = Double(text), number.isFinite else {
                throw .invalidParams("query.\(name) must be a number")
            }
            return .double(number)
        }
        if booleans.contains(name) {
            switch text {
            case "", "true", "1": return .bool(true)
            case "false", "0": return .bool(false)
            default: throw .invalidParams("query.\(name) must be true or false")
            }
        }
        return .string(text)
    }
}
