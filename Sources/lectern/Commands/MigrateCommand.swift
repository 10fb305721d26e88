import ArgumentParser
import Foundation
import Storage

struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Apply database migrations not applied yet (serve also does this) and list them.",
        discussion: "Example: lectern migrate -s /var/lib/lectern")

    @OptionGroup var siteOptions: SiteOptions

    func run() async throws {
        let applied = try await reportingErrors {
            try siteOptions.openBlog().appliedMigrations()
        }
        print("database: \(siteOptions.root.appendingPathComponent("data/lectern.sqlite").path)")
        for name in applied { print("applied: \(name)") }
    }
}
