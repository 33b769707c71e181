import WeatherDomain

/// The Prometheus text exposition format (version 0.0.4), written family by family: one `# HELP` and one
/// `# TYPE` per family, then its samples, each line ending in `\n`.
///
/// Names are checked (`[a-zA-Z_:][a-zA-Z0-9_:]*`, labels `[a-zA-Z_][a-zA-Z0-9_]*` and never `__…`) and
/// a family is written once: a name given twice, or a bad name, is a programming error the tests catch.
/// Label values and help texts are escaped as the format asks (`\\`, `\"` in label values, `\n`).
package struct Exposition: Sendable {
    /// The HTTP `Content-Type` of the text.
    package static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// A family's type.
    package enum Kind: String, Sendable {
        case counter, gauge, histogram
    }

    /// One sample of a counter or gauge.
    package struct Sample: Sendable, Equatable {
        package var labels: [(String, String)]
        package var value: Double

        package init(_ labels: [(String, String)] = [], _ value: Double) {
            self.labels = labels
            self.value = value
        }

        package static func == (lhs: Sample, rhs: Sample) -> Bool {
            lhs.value == rhs.value && lhs.labels.elementsEqual(rhs.labels) { $0 == $1 }
        }
    }

    /// One labelled series of a histogram: cumulative counts per upper bound (`+Inf` is added), sum and count.
    package struct Series: Sendable {
        package var labels: [(String, String)]
        /// (upper bound, observations at or below it), bounds ascending.
        package var buckets: [(Double, UInt64)]
        package var sum: Double
        package var count: UInt64

        package init(_ labels: [(String, String)] = [], buckets: [(Double, UInt64)], sum: Double, count: UInt64) {
            self.labels = labels
            self.buckets = buckets
            self.sum = sum
            self.count = count
        }
    }

    /// The text so far.
    package private(set) var text = ""
    private var written: Set<String> = []

    package init() {}

    /// Writes a counter or gauge family. A counter's name ends in `_total`.
    package mutating func family(_ name: String, _ kind: Kind, help: String, _ samples: [Sample]) {
        precondition(kind != .histogram, "histograms are written with histogram(_:help:_:)")
        precondition(kind != .counter || name.hasSuffix("_total"), "a counter's name ends in _total: \(name)")
        header(name, kind, help)
        for sample in samples { line(name, sample.labels, sample.value) }
    }

    /// Writes a histogram family: `_bucket` per bound and `+Inf`, `_sum` and `_count` per series.
    package mutating func histogram(_ name: String, help: String, _ series: [Series]) {
        header(name, .histogram, help)
        for one in series {
            for (bound, count) in one.buckets {
                line(name + "_bucket", one.labels + [("le", Self.number(bound))], Double(count))
            }
            line(name + "_bucket", one.labels + [("le", "+Inf")], Double(one.count))
            line(name + "_sum", one.labels, one.sum)
            line(name + "_count", one.labels, Double(one.count))
        }
    }

    private mutating func header(_ name: String, _ kind: Kind, _ help: String) {
        precondition(Self.isMetricName(name), "not a metric name: \(name)")
        precondition(written.insert(name).inserted, "the family \(name) is written twice")
        text += "# HELP \(name) \(Self.escape(help, quotes: false))\n# TYPE \(name) \(kind.rawValue)\n"
    }

    private mutating func line(_ name: String, _ labels: [(String, String)], _ value: Double) {
        text += name
        if !labels.isEmpty {
            text += "{"
            text += labels.map { label, value in
                precondition(Self.isLabelName(label), "not a label name: \(label)")
                return "\(label)=\"\(Self.escape(value, quotes: true))\""
            }.joined(separator: ",")
            text += "}"
        }
        text += " \(Self.number(value))\n"
    }

    /// A value as the format writes it: `+Inf`, `-Inf`, `NaN`, whole numbers without a fraction.
    package static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    static func escape(_ text: String, quotes: Bool) -> String {
        var out = ""
        for character in text.unicodeScalars {
            switch character {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\"" where quotes: out += "\\\""
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    static func isMetricName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetter || first == "_" || first == ":" else {
            return false
        }
        return name.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" || $0 == ":" }
    }

    static func isLabelName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetter || first == "_", !name.hasPrefix("__") else {
            return false
        }
        return name.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" }
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
