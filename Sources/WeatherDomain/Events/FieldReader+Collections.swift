extension FieldReader {
    /// The elements of the array member `key`, each decoded by `decode` with its path (`path.key[i]`).
    ///
    /// - Throws: `FieldError` when the member is missing or not an array, or whatever `decode` throws.
    package func elements<T>(
        _ key: String, _ decode: (JSONValue, String) throws(FieldError) -> T
    ) throws(FieldError) -> [T] {
        guard case .array(let items)? = members[key] else {
            throw FieldError(path: "\(path).\(key)", problem: "must be an array")
        }
        var out: [T] = []
        out.reserveCapacity(items.count)
        for (index, item) in items.enumerated() { out.append(try decode(item, "\(path).\(key)[\(index)]")) }
        return out
    }

    /// The object member `key`'s values, each decoded by `decode` with its path (`path.key.name`).
    ///
    /// - Throws: `FieldError` when the member is missing or not an object, or whatever `decode` throws.
    package func values<T>(
        _ key: String, _ decode: (JSONValue, String) throws(FieldError) -> T
    ) throws(FieldError) -> [String: T] {
        guard case .object(let items)? = members[key] else {
            throw FieldError(path: "\(path).\(key)", problem: "must be an object")
        }
        var out: [String: T] = [:]
        out.reserveCapacity(items.count)
        for (name, item) in items { out[name] = try decode(item, "\(path).\(key).\(name)") }
        return out
    }
}
