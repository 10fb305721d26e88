import ArgumentParser
import Foundation

/// `lectern-soak soak|chaos`: the long-run and fault tests of docs/reliability.md, against a
/// real `lectern serve` binary. `make soak` and `make chaos` run the long forms; `make test`
/// runs `--short` forms of both.
@main
struct SoakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "lectern-soak", abstract: "Soak and chaos tests of lectern serve.",
                                                    subcommands: [Soak.self, Chaos.self])
}

struct CommonOptions: ParsableArguments {
    @Option(help: "The lectern binary under test.") var lectern = ".build/release/lectern"
    @Option(help: "Working folder (the site is made in it afresh).") var work = "/tmp/lectern-soak"
    @Option(help: "The blog's port.") var port = 18_480
    @Option(help: "The first fake server's port (one port per server after it).") var fediversePort = 18_500
    @Option(help: "Seed of every random choice: the same seed replays the same run.") var seed: UInt64 = 1
    @Option(help: "Where to write the report (Markdown); it is printed too.") var report: String?
    @Flag(help: "The short form `make test` runs: about a minute, fewer actors and posts.") var short = false

    func site(_ name: String) -> SiteUnderTest {
        SiteUnderTest(lectern: URL(fileURLWithPath: lectern).standardizedFileURL.path,
                      root: URL(fileURLWithPath: work).appendingPathComponent(name), port: port)
    }

    func finish(_ markdown: String, failures: [String]) throws {
        print(markdown)
        if let report { try markdown.write(toFile: report, atomically: true, encoding: .utf8) }
        guard failures.isEmpty else { throw ExitCode(1) }
    }
}

struct Soak: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Mixed load for SOAK_MINUTES against one lectern serve.")
    @OptionGroup var common: CommonOptions
    @Option(help: "Minutes of load.") var minutes: Double?
    @Option(help: "Page and asset views a second (to find what grows: set the others to 0).") var pageRate: Double?
    @Option(help: "Article fetches a second.") var articleRate: Double?
    @Option(help: "Inbox activities a second.") var inboxRate: Double?
    @Option(help: "Searches a second.") var searchRate: Double?

    func run() async throws {
        var settings = SoakScenario.Settings()
        settings.seed = common.seed
        if common.short {
            (settings.minutes, settings.posts, settings.instances, settings.actorsPerInstance) = (1, 200, 10, 5)
            (settings.pageRate, settings.articleRate, settings.inboxRate, settings.searchRate) = (40, 6, 6, 1)
            (settings.stampedeEvery, settings.stampedeSize, settings.publishEvery, settings.sampleEvery) = (40, 1000, 40, 5)
        }
        if let minutes { settings.minutes = minutes }
        settings.pageRate = pageRate ?? settings.pageRate
        settings.articleRate = articleRate ?? settings.articleRate
        settings.inboxRate = inboxRate ?? settings.inboxRate
        settings.searchRate = searchRate ?? settings.searchRate
        let report = try await SoakScenario(settings: settings, site: common.site("soak-site"), basePort: common.fediversePort).run()
        try common.finish(report.markdown, failures: report.failures)
    }
}

struct Chaos: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Flaky inboxes and kill -9 during a fan-out and an inbox burst.")
    @OptionGroup var common: CommonOptions

    func run() async throws {
        var settings = ChaosScenario.Settings()
        settings.seed = common.seed
        if common.short {
            (settings.posts, settings.inboxes, settings.replies, settings.instances, settings.actorsPerInstance) = (50, 600, 300, 10, 5)
            (settings.killWindow, settings.drainWithin) = (20, 120)
        }
        let report = try await ChaosScenario(settings: settings, site: common.site("chaos-site"), basePort: common.fediversePort).run()
        try common.finish(report.markdown, failures: report.failures)
    }
}
