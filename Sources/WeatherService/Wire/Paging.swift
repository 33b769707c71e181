import WeatherDomain
import WeatherEngine

/// Pages a list so no result line grows past what common line readers handle.
///
/// A page holds at most `limit` items and about 60 KiB of JSON; `nextCursor` (an opaque string)
/// is present while more remain. The cursor of an offset-paged list is `o<offset>`.
enum Paging {
    /// The byte budget of one page's items.
    static let budget = PageRequest.byteBudget

    /// One page of `items` as `{<name>: […], nextCursor?}`.
    static func page(_ items: [JSONValue], name: String, limit: Int, offset: Int) -> JSONValue {
        page(count: items.count, name: name, limit: limit, offset: offset) { items[$0] }
    }

    /// One page of a list of `count` items, building only the items on the page (`item(i)` is the i-th).
    static func page(
        count: Int, name: String, limit: Int, offset: Int, item: (Int) -> JSONValue
    ) -> JSONValue {
        var page: [JSONValue] = []
        var bytes = 0
        var index = offset
        while index < count, page.count < limit {
            let value = item(index)
            let size = value.jsonBytes.count
            if !page.isEmpty, bytes + size > budget { break }
            page.append(value)
            bytes += size
            index += 1
        }
        var result: [String: JSONValue] = [name: .array(page)]
        if index < count { result["nextCursor"] = .string("o\(index)") }
        return .object(result)
    }
}
