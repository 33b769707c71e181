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
        cut(count: count, name: name, limit: limit, offset: offset, item: item).json
    }

    /// One page, and which items it holds.
    struct Cut {
        /// `{<name>: […], nextCursor?}`.
        var json: JSONValue
        /// The indices of the items on the page.
        var shown: Range<Int>
        /// The cursor of the next page; nil on the last.
        var nextCursor: String?
    }

    /// One page of a list of `count` items, and which of them it holds.
    static func cut(count: Int, name: String, limit: Int, offset: Int, item: (Int) -> JSONValue) -> Cut {
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
        let next = index < count ? "o\(index)" : nil
        var result: [String: JSONValue] = [name: .array(page)]
        if let next { result["nextCursor"] = .string(next) }
        return Cut(json: .object(result), shown: min(offset, index)..<index, nextCursor: next)
    }
}
