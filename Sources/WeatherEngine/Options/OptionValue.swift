import WeatherDomain

/// How an option's text becomes its value and is written back: the parser half of an `Option`.
package struct OptionValue<Value: Sendable>: Sendable {
    /// The value's name in usage and help (`N`, `SECONDS`, `URL`, `always|batch|never`); nil for a switch.
    package var placeholder: String?
    package var completion: ShellCompletion
    /// The unit a value is shown with beside another (`s`), if any.
    package var unit: String?
    /// Reads the text.
    let read: @Sendable (String) throws(OptionRefusal) -> Value
    /// Writes the value as the option takes it; nil when there is none.
    package let write: @Sendable (Value) -> String?

    package init(
        placeholder: String?, completion: ShellCompletion = .none, unit: String? = nil,
        read: @escaping @Sendable (String) throws(OptionRefusal) -> Value,
        write: @escaping @Sendable (Value) -> String?
    ) {
        self.placeholder = placeholder
        self.completion = completion
        self.unit = unit
        self.read = read
        self.write = write
    }

    /// The same value, but optional: nil (none given) is written as nothing.
    package var optional: OptionValue<Value?> {
        let read = self.read
        let write = self.write
        return OptionValue<Value?>(
            placeholder: placeholder, completion: completion, unit: unit,
            read: { text throws(OptionRefusal) in try read(text) }, write: { $0.flatMap(write) })
    }

    /// The same text read into another type (`Int` into `Int64`).
    package func map<Other: Sendable>(
        _ forward: @escaping @Sendable (Value) -> Other, back: @escaping @Sendable (Other) -> Value
    ) -> OptionValue<Other> {
        let read = self.read
        let write = self.write
        return OptionValue<Other>(
            placeholder: placeholder, completion: completion, unit: unit,
            read: { text throws(OptionRefusal) in forward(try read(text)) }, write: { write(back($0)) })
    }
}

extension OptionValue {
    /// A switch: given, it is on.
    package static var on: OptionValue<Bool> {
        OptionValue<Bool>(placeholder: nil, read: { _ in true }, write: { $0 ? "on" : nil })
    }

    /// Any text, the empty one included.
    package static func text(_ placeholder: String) -> OptionValue<String> {
        OptionValue<String>(placeholder: placeholder, read: { $0 }, write: { $0 })
    }

    /// A path, which must not be empty.
    package static func path(_ placeholder: String, _ completion: ShellCompletion) -> OptionValue<String> {
        OptionValue<String>(
            placeholder: placeholder, completion: completion,
            read: { text throws(OptionRefusal) in
                guard !text.isEmpty else { throw OptionRefusal("must not be empty") }
                return text
            }, write: { $0 })
    }

    /// An `http://` or `https://` URL.
    package static var url: OptionValue<String> {
        OptionValue<String>(
            placeholder: "URL",
            read: { text throws(OptionRefusal) in
                guard text.hasPrefix("http://") || text.hasPrefix("https://") else {
                    throw OptionRefusal("must be an http:// or https:// URL")
                }
                return text
            }, write: { $0 })
    }

    /// A whole number in `range`.
    package static func integer(_ range: ClosedRange<Int>, _ placeholder: String = "N") -> OptionValue<Int> {
        OptionValue<Int>(
            placeholder: placeholder,
            read: { text throws(OptionRefusal) in
                guard let number = Int(text), range.contains(number) else {
                    throw OptionRefusal("must be a whole number from \(range.lowerBound) to \(range.upperBound)")
                }
                return number
            }, write: { "\($0)" })
    }

    /// A whole number of seconds in `range`.
    package static func seconds(_ range: ClosedRange<Int>) -> OptionValue<Duration> {
        var value = integer(range, "SECONDS").map({ Duration.seconds($0) }, back: { Int($0.components.seconds) })
        value.unit = "s"
        return value
    }

    /// A whole number of seconds in `range`, where 0 means never (nil).
    package static func secondsOrNever(_ range: ClosedRange<Int>) -> OptionValue<Duration?> {
        var value = integer(range, "SECONDS").map(
            { $0 == 0 ? nil : Duration.seconds($0) }, back: { Int($0?.components.seconds ?? 0) })
        value.unit = "s"
        return value
    }

    /// A retention duration: a whole number followed by `s`, `m`, `h` or `d`, or `0` (`Duration.retention`).
    package static var duration: OptionValue<Duration> {
        OptionValue<Duration>(
            placeholder: "DURATION",
            read: { text throws(OptionRefusal) in
                guard let duration = Duration.retention(text) else {
                    throw OptionRefusal("must be a duration: 90s, 12h, 30d or 0")
                }
                return duration
            }, write: { Duration.retentionText($0) })
    }

    /// A retention duration, or `forever` (nil).
    package static var durationOrForever: OptionValue<Duration?> {
        OptionValue<Duration?>(
            placeholder: "DURATION",
            read: { text throws(OptionRefusal) in
                if text == "forever" { return nil }
                guard let duration = Duration.retention(text) else {
                    throw OptionRefusal("must be a duration: 90s, 12h, 30d, 0 or forever")
                }
                return duration
            }, write: { $0.map(Duration.retentionText) ?? "forever" })
    }

    /// One of `words`.
    package static func choice(_ words: [String], _ placeholder: String? = nil) -> OptionValue<String> {
        OptionValue<String>(
            placeholder: placeholder ?? words.joined(separator: "|"), completion: .choices(words),
            read: { text throws(OptionRefusal) in
                guard words.contains(text) else { throw OptionRefusal("must be \(Self.either(words))") }
                return text
            }, write: { $0 })
    }

    /// One of an enumeration's raw values.
    package static func cases<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ type: Choice.Type
    ) -> OptionValue<Choice> where Choice.RawValue == String {
        let words = Choice.allCases.map(\.rawValue)
        return OptionValue<Choice>(
            placeholder: words.joined(separator: "|"), completion: .choices(words),
            read: { text throws(OptionRefusal) in
                guard let choice = Choice(rawValue: text) else { throw OptionRefusal("must be \(Self.either(words))") }
                return choice
            }, write: { $0.rawValue })
    }

    /// `a`, `a or b`, `a, b or c`.
    package static func either(_ words: [String]) -> String {
        guard let last = words.last else { return "" }
        return words.count == 1 ? last : words.dropLast().joined(separator: ", ") + " or " + last
    }
}

extension Duration {
    /// A duration as every retention flag writes it: a whole number followed by `s`, `m`, `h` or `d`, or `0`.
    package static func retention(_ text: String) -> Duration? {
        if text == "0" { return .zero }
        guard let unit = text.last, let count = Int64(text.dropLast()), count >= 0, count <= 100 * 365 * 86_400
        else { return nil }
        switch unit {
        case "s": return .seconds(count)
        case "m": return .seconds(count * 60)
        case "h": return .seconds(count * 3600)
        case "d": return .seconds(count * 86_400)
        default: return nil
        }
    }

    /// A duration as `retention(_:)` reads it, in the largest unit that writes it whole (`30d`, `90s`, `0`).
    package static func retentionText(_ duration: Duration) -> String {
        let seconds = duration.components.seconds
        guard seconds > 0 else { return "0" }
        for (unit, size) in [("d", Int64(86_400)), ("h", 3600), ("m", 60)] where seconds % size == 0 {
            return "\(seconds / size)\(unit)"
        }
        return "\(seconds)s"
    }
}
