import WeatherDomain

/// Small text helpers the commands share.
enum Text {
    /// Rows with their columns aligned (two spaces between columns; the last column is not padded), leaving
    /// out a column that is empty in every row.
    static func table(_ allRows: [[String]]) -> String {
        let allColumns = allRows.map(\.count).max() ?? 0
        let kept = (0..<allColumns).filter { column in
            allRows.contains { column < $0.count && !$0[column].isEmpty }
        }
        let rows = allRows.map { row in kept.map { $0 < row.count ? row[$0] : "" } }
        let columns = kept.count
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() where index < columns - 1 {
                widths[index] = max(widths[index], cell.count)
            }
        }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index < row.count - 1 ? cell.padding(toLength: widths[index], withPad: " ", startingAt: 0) : cell
            }.joined(separator: "  ").trimmingTrailingSpaces
        }.joined(separator: "\n")
    }

    /// A byte count for people: `512 B`, `12.3 KB`, `4.5 MB`, `1.2 GB`.
    static func bytes(_ count: Int64) -> String {
        if count < 1000 { return "\(count) B" }
        var value = Double(count)
        for unit in ["KB", "MB", "GB", "TB"] {
            value /= 1000
            if value < 1000 || unit == "TB" { return "\(Rounding.round(value, decimals: 1)) \(unit)" }
        }
        return "\(count) B"
    }

    /// A duration for people: `45 s`, `12 min`, `3 h 20 min`, `2 d 4 h`.
    static func duration(seconds: Double) -> String {
        let total = Int(seconds.rounded(.down))
        if total < 60 { return "\(total) s" }
        if total < 3600 { return "\(total / 60) min" }
        if total < 86_400 { return "\(total / 3600) h \(total % 3600 / 60) min" }
        return "\(total / 86_400) d \(total % 86_400 / 3600) h"
    }

    /// A number without a needless `.0`.
    static func number(_ value: Double, decimals: Int = 1) -> String {
        let rounded = Rounding.round(value, decimals: decimals)
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }
}

extension String {
    /// The string without the spaces at its end.
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
