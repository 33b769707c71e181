/// Reads the Prometheus text format back, independently of the writer, checking what a scraper checks:
/// every sample belongs to a family announced by one `# HELP` and one `# TYPE` before it, names and labels
/// are well formed, label values unescape, and no series (name and labels) appears twice.
package enum ExpositionParser {
    /// A family as read: its type, help and samples (name, labels in order, value).
    package struct Family: Equatable, Sendable {
        package var type: String
        package var help: String
        package var samples: [Sample]
    }

    package struct Sample: Equatable, Sendable {
        package var name: String
        package var labels: [String: String]
        package var value: Double
    }

    package struct Problem: Error, CustomStringConvertible {
        package var line: Int
        package var message: String
        package var description: String { "line \(line): \(message)" }
    }

    /// The families of `text` by name.
    package static func parse(_ text: String) throws -> [String: Family] {
        guard text.isEmpty || text.hasSuffix("\n") else { throw Problem(line: 0, message: "the last line has no \\n") }
        var families: [String: Family] = [:]
        var current: String?
        var seen: Set<String> = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().enumerated() {
            let line = String(raw)
            let number = index + 1
            if line.hasPrefix("# HELP ") || line.hasPrefix("# TYPE ") {
                let rest = line.dropFirst(7)
                guard let space = rest.firstIndex(of: " ") else { throw Problem(line: number, message: "no text") }
                let name = String(rest[..<space])
                let value = String(rest[rest.index(after: space)...])
                var family = families[name] ?? Family(type: "", help: "", samples: [])
                guard family.samples.isEmpty else {
                    throw Problem(line: number, message: "\(name)'s metadata after its samples")
                }
                if line.hasPrefix("# HELP ") {
                    guard family.help.isEmpty else { throw Problem(line: number, message: "a second HELP of \(name)") }
                    family.help = value.replacingAll("\\n", "\n").replacingAll("\\\\", "\\")
                } else {
                    guard family.type.isEmpty else { throw Problem(line: number, message: "a second TYPE of \(name)") }
                    guard ["counter", "gauge", "histogram", "summary", "untyped"].contains(value) else {
                        throw Problem(line: number, message: "unknown type \(value)")
                    }
                    family.type = value
                }
                families[name] = family
                current = name
                continue
            }
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let sample = try self.sample(line, number)
            guard let name = current, let family = families[name],
                sample.name == name
                    || (family.type == "histogram"
                        && ["_bucket", "_sum", "_count"].map { name + $0 }.contains(sample.name))
            else { throw Problem(line: number, message: "\(sample.name) belongs to no family announced before it") }
            let key =
                sample.name + "{"
                + sample.labels.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                .joined(separator: ",") + "}"
            guard seen.insert(key).inserted else { throw Problem(line: number, message: "the series \(key) twice") }
            families[name]?.samples.append(sample)
        }
        return families
    }

    private static func sample(_ line: String, _ number: Int) throws -> Sample {
        var scalars = Substring(line)
        let name = String(scalars.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" })
        guard let first = name.first, !first.isNumber else { throw Problem(line: number, message: "bad name") }
        scalars = scalars.dropFirst(name.count)
        var labels: [String: String] = [:]
        if scalars.first == "{" {
            scalars = scalars.dropFirst()
            while scalars.first != "}" {
                let label = String(scalars.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                scalars = scalars.dropFirst(label.count)
                guard !label.isEmpty, scalars.hasPrefix("=\"") else {
                    throw Problem(line: number, message: "bad label in \(line)")
                }
                scalars = scalars.dropFirst(2)
                var value = ""
                while let character = scalars.first, character != "\"" {
                    scalars = scalars.dropFirst()
                    if character == "\\" {
                        switch scalars.first {
                        case "n": value.append("\n")
                        case "\\": value.append("\\")
                        case "\"": value.append("\"")
                        default: throw Problem(line: number, message: "bad escape in \(line)")
                        }
                        scalars = scalars.dropFirst()
                    } else {
                        value.append(character)
                    }
                }
                guard scalars.first == "\"" else { throw Problem(line: number, message: "unterminated value") }
                scalars = scalars.dropFirst()
                guard labels.updateValue(value, forKey: label) == nil else {
                    throw Problem(line: number, message: "label \(label) twice")
                }
                if scalars.first == "," { scalars = scalars.dropFirst() }
            }
            scalars = scalars.dropFirst()
        }
        guard scalars.first == " " else { throw Problem(line: number, message: "no value in \(line)") }
        let text = scalars.dropFirst().split(separator: " ").first.map(String.init) ?? ""
        let value: Double? =
            switch text {
            case "+Inf": .infinity
            case "-Inf": -.infinity
            case "NaN": .nan
            default: Double(text)
            }
        guard let value else { throw Problem(line: number, message: "bad value \(text)") }
        return Sample(name: name, labels: labels, value: value)
    }
}

extension String {
    fileprivate func replacingAll(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
