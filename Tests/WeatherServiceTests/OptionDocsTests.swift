import Foundation
import Testing
import WeatherCLI
import WeatherEngine

@Suite("The articles list every option as the option table declares it")
struct OptionDocsTests {
    /// The DocC catalog, from this file's place in the repository.
    static let articles = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/weatherd/weatherd.docc")

    /// The Markdown table rows of `article`, each split into its cells (`\|` is a `|` inside a cell).
    static func rows(_ article: String) throws -> [[String]] {
        let text = try String(contentsOf: articles.appendingPathComponent(article), encoding: .utf8)
        return text.split(separator: "\n").filter { $0.hasPrefix("| ") }.map { line in
            line.replacingOccurrences(of: "\\|", with: "\u{0}").split(separator: "|").map {
                $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\u{0}", with: "\\|")
            }
        }
    }

    /// The first cell of an option's row, as its declaration writes it: `` `--fsync always\|batch\|never` ``,
    /// with older flags after it (`` (or `--nws-contact`) ``).
    static func cell<Root>(_ option: Option<Root>) -> String {
        let value = option.placeholder.map { " " + $0.replacingOccurrences(of: "|", with: "\\|") } ?? ""
        let older = option.flags.dropFirst().map { " (or `\($0)`)" }.joined()
        return "`\(option.name)\(value)`\(older)"
    }

    @Test("Running it: one row per option, its flag and value as declared, naming its variables and default")
    func runningIt() throws {
        let rows = try Self.rows("RunningIt.md").filter { $0.first?.hasPrefix("`--") == true }
        let documented = Dictionary(
            rows.map { (String($0[0].dropFirst().prefix { $0 != " " && $0 != "`" }), $0) }
        ) { first, _ in first }
        let defaults = Configuration(dataDirectory: "")
        for option in Configuration.table.options where !option.flags.isEmpty {
            guard let row = documented[option.name] else {
                Issue.record("RunningIt.md has no row for \(option.name); its first cell: \(Self.cell(option))")
                continue
            }
            #expect(row[0] == Self.cell(option), "\(option.name)")
            for variable in option.environment {
                #expect(row[1].contains("$\(variable)"), "\(option.name)'s row names $\(variable)")
            }
            if let value = option.written(defaults), !value.isEmpty {
                #expect(row[1].contains(value), "\(option.name)'s row gives its default \(value)")
            }
        }
        let declared = Set(Configuration.table.options.flatMap(\.flags) + [CLI.standalone.option.name])
        #expect(Set(documented.keys).subtracting(declared).isEmpty, "every flag documented is declared")
        let text = try String(contentsOf: Self.articles.appendingPathComponent("RunningIt.md"), encoding: .utf8)
        for option in Configuration.table.options where option.flags.isEmpty {
            #expect(text.contains("`\(option.name)`"), "RunningIt.md names \(option.name)")
        }
    }

    @Test("From the shell: each command has a row, and the row names every option of the command's own")
    func fromTheShell() throws {
        let rows = try Self.rows("FromTheShell.md")
        for command in CLI.commands {
            let row = rows.first { row in
                ["`weatherd \(command.name) ", "`weatherd \(command.name)`"].contains {
                    row.first?.hasPrefix($0) == true
                }
            }
            guard let row else {
                Issue.record("FromTheShell.md has no row for \(command.name)")
                continue
            }
            for option in command.options {
                #expect(row[0].contains(option.name), "\(command.name)'s row names \(option.name)")
            }
        }
    }
}
