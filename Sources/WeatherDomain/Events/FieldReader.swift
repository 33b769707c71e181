/// A problem with one member of a JSON object: where it is and what is wrong with it.
package struct FieldError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The member's path, e.g. `params.lat`.
    package var path: String
    /// What is wrong, e.g. `must be a number between -90 and 90`.
    package var problem: String

    package init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    package var description: String { "\(path) \(problem)" }
}

/// Reads typed members out of a JSON object, with errors that name the member.
///
/// Used for event payloads and for RPC params alike, so that a bad field always reads
/// `params.lat must be a number` rather than a decoder's internal message.
package struct FieldReader: Sendable {
    /// The object's members.
    package let members: [String: JSONValue]
    /// The path prefix used in error messages (`params`, `data`).
    package let path: String

    /// Wraps `value`, which must be an object (or, with `allowAbsent`, null/missing meaning empty).
    package init(_ value: JSONValue?, path: String, allowAbsent: Bool = false) throws(FieldError) {
        switch value {
        case .object(let members)?: self.members = members
        case nil where allowAbsent, .null? where allowAbsent: self.members = [:]
        default: throw FieldError(path: path, problem: "must be an object")
        }
        self.path = path
    }

    private func name(_ key: String) -> String { "\(path).\(key)" }

    /// Whether the member is present and not null.
    package func has(_ key: String) -> Bool {
        if let value = members[key], !value.isNull { return true }
        return false
    }

    /// Throws when the object has members outside `allowed`.
    package func rejectUnknown(_ allowed: Set<String>) throws(FieldError) {
        if let unknown = members.keys.filter({ !allowed.contains($0) }).sorted().first {
            throw FieldError(
                path: name(unknown),
                problem: "is not a known member (expected one of: \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    package func string(_ key: String) throws(FieldError) -> String {
        guard let value = try optionalString(key) else { throw FieldError(path: name(key), problem: "is required") }
        return value
    }

    package func optionalString(_ key: String) throws(FieldError) -> String? {
        switch members[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw FieldError(path: name(key), problem: "must be a string")
        }
    }

    /// A string that is not empty after trimming white space, at most `maxLength` characters.
    package func nonEmptyString(_ key: String, maxLength: Int = 200) throws(FieldError) -> String? {
        guard let text = try optionalString(key) else { return nil }
        let trimmed = text.trimmingWhitespace
        if trimmed.isEmpty { throw FieldError(path: name(key), problem: "must not be empty") }
        if trimmed.count > maxLength {
            throw FieldError(path: name(key), problem: "must be at most \(maxLength) characters")
        }
        return trimmed
    }

    package func double(_ key: String) throws(FieldError) -> Double {
        guard let value = try optionalDouble(key) else { throw FieldError(path: name(key), problem: "is required") }
        return value
    }

    package func optionalDouble(_ key: String) throws(FieldError) -> Double? {
        switch members[key] {
        case nil, .null?: return nil
        case let value?:
            guard let number = value.doubleValue else { throw FieldError(path: name(key), problem: "must be a number") }
            return number
        }
    }

    /// A number within `range`, e.g. a latitude.
    package func double(_ key: String, in range: ClosedRange<Double>) throws(FieldError) -> Double? {
        guard let value = try optionalDouble(key) else { return nil }
        guard range.contains(value) else {
            throw FieldError(path: name(key), problem: "must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return value
    }

    package func int(_ key: String) throws(FieldError) -> Int64 {
        guard let value = try optionalInt(key) else { throw FieldError(path: name(key), problem: "is required") }
        return value
    }

    package func optionalInt(_ key: String) throws(FieldError) -> Int64? {
        switch members[key] {
        case nil, .null?: return nil
        case let value?:
            guard let number = value.intValue else { throw FieldError(path: name(key), problem: "must be an integer") }
            return number
        }
    }

    /// An integer within `range`.
    package func int(_ key: String, in range: ClosedRange<Int64>) throws(FieldError) -> Int64? {
        guard let value = try optionalInt(key) else { return nil }
        guard range.contains(value) else {
            throw FieldError(path: name(key), problem: "must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return value
    }

    package func bool(_ key: String) throws(FieldError) -> Bool {
        guard let value = try optionalBool(key) else { throw FieldError(path: name(key), problem: "is required") }
        return value
    }

    package func optionalBool(_ key: String) throws(FieldError) -> Bool? {
        switch members[key] {
        case nil, .null?: return nil
        case .bool(let flag)?: return flag
        default: throw FieldError(path: name(key), problem: "must be true or false")
        }
    }

    package func timestamp(_ key: String) throws(FieldError) -> Timestamp {
        let text = try string(key)
        guard let time = Timestamp(rfc3339: text) else {
            throw FieldError(path: name(key), problem: "must be an RFC 3339 time such as 2026-11-22T18:34:27.123Z")
        }
        return time
    }

    package func optionalTimestamp(_ key: String) throws(FieldError) -> Timestamp? {
        guard has(key) else { return nil }
        return try timestamp(key)
    }

    /// One of a fixed set of strings.
    package func choice<T: RawRepresentable>(_ key: String, as type: T.Type) throws(FieldError) -> T?
    where T.RawValue == String, T: CaseIterable {
        guard let text = try optionalString(key) else { return nil }
        guard let value = T(rawValue: text) else {
            let allowed = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw FieldError(path: name(key), problem: "must be one of \(allowed)")
        }
        return value
    }

    /// An array of strings.
    package func optionalStrings(_ key: String) throws(FieldError) -> [String]? {
        switch members[key] {
        case nil, .null?: return nil
        case .array(let items)?:
            var out: [String] = []
            for item in items {
                guard case .string(let text) = item else {
                    throw FieldError(path: name(key), problem: "must be an array of strings")
                }
                out.append(text)
            }
            return out
        default: throw FieldError(path: name(key), problem: "must be an array of strings")
        }
    }
}

extension String {
    /// The string without leading and trailing white space and newlines.
    package var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
