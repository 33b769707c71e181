import Foundation
import Testing

@Suite(
    "the docs as a code host shows them: every article listed, links that work there, every command, an install step")
struct DocLinksTests {
    static let catalog = "Sources/weatherd/weatherd.docc"

    static func text(_ file: String) throws -> String {
        try String(contentsOfFile: Repository.root.appendingPathComponent(file).path, encoding: .utf8)
    }

    /// The lines of `file` from the heading `heading` to the next heading of its level.
    static func section(_ heading: String, of file: String) throws -> [Substring] {
        let lines = try text(file).split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0 == heading }, "\(file) has \(heading)")
        let level = heading.prefix { $0 == "#" } + " "
        let rest = lines[(start + 1)...]
        return Array(rest.prefix { !($0.hasPrefix(level) && !$0.hasPrefix(level + "#")) })
    }

    @Test("the README's list of articles links every article of the catalog")
    func everyArticleListed() throws {
        let list = try Self.section("## Documentation", of: "README.md").joined(separator: "\n")
        let articles = try FileManager.default.contentsOfDirectory(
            atPath: Repository.root.appendingPathComponent(Self.catalog).path
        )
        .filter { $0.hasSuffix(".md") && $0 != "weatherd.md" }
        #expect(articles.count > 10)
        for article in articles.sorted() {
            #expect(list.contains("](\(Self.catalog)/\(article))"), "the README's list of articles links \(article)")
        }
    }

    @Test("no DocC-only link (<doc:…>): every document is read on a code host, where only relative links work")
    func relativeLinks() throws {
        let catalog = Repository.root.appendingPathComponent(Self.catalog).path
        let articles = try FileManager.default.contentsOfDirectory(atPath: catalog).filter { $0.hasSuffix(".md") }
        let bench = "Sources/weatherd-bench/weatherd-bench.docc"
        let benchArticles = try FileManager.default.contentsOfDirectory(
            atPath: Repository.root.appendingPathComponent(bench).path
        ).filter { $0.hasSuffix(".md") }
        let files =
            ["README.md", "Events/README.md"] + articles.map { "\(Self.catalog)/\($0)" }
            + benchArticles.map { "\(bench)/\($0)" }
        for file in files {
            let lines = try Self.text(file).split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() where line.contains("<doc:") || line.contains("](doc:") {
                Issue.record("\(file):\(number + 1) links with DocC's doc: form, raw on a code host: \(line)")
            }
        }
    }

    @Test("From the shell has a row for every command `weatherd --help` lists")
    func everyCommandInTheTable() async throws {
        let overview = try await runCommand(["--help"])
        let lines = overview.output.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0 == "commands:" })
        // A command's line is indented two spaces; a summary's continuation, more.
        let names = lines[(start + 1)...].prefix { !$0.isEmpty }.filter {
            $0.hasPrefix("  ") && $0.dropFirst(2).first != " "
        }
        .compactMap { $0.split(separator: " ").first }.map(String.init)
        // The offline log tools have their own section in Running it.
        .filter { $0 != "log" }
        #expect(names.contains("notify") && names.contains("events"), "\(names)")
        let table = try Self.text("\(Self.catalog)/FromTheShell.md").split(separator: "\n").filter {
            $0.hasPrefix("| `weatherd ")
        }
        for name in names {
            #expect(table.contains { $0.hasPrefix("| `weatherd \(name)") }, "From the shell has a row for \(name)")
        }
    }

    @Test("the install step puts weatherd where the MCP and systemd examples expect it")
    func installStep() throws {
        var named: [String] = []
        for file in ["README.md"]
            + ["AIAgents.md", "RunningIt.md", "Metrics.md", "Notifications.md"].map({
                "\(Self.catalog)/\($0)"
            }) where try Self.text(file).contains("/usr/local/bin/weatherd")
        {
            named.append(file)
        }
        #expect(named.count >= 4, "the examples name /usr/local/bin/weatherd: \(named)")
        let readme = try Self.text("README.md").split(separator: "\n")
        #expect(readme.contains("swift build -c release"), "the README builds for release on its own line")
        #expect(
            readme.contains {
                $0.contains("install ") && $0.contains(".build/release/weatherd") && $0.contains("/usr/local/bin")
            },
            "the README installs the release build into /usr/local/bin")
        #expect(readme.contains { $0.contains("weatherd completions bash") }, "and says where the completions go")
    }
}
