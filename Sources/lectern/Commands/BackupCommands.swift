import ArgumentParser
import Foundation
import LecternRuntime

struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup", abstract: "Save the blog (database, keys, config, sources) into one .tar.gz, while it runs.",
        discussion: """
        The database is copied with SQLite's online backup API (consistent while the server writes) and checked \
        with integrity_check. The archive is mode 0600: it holds the private keys. public/ is not saved.

        Example: lectern backup -s /var/lib/lectern /var/backups/lectern/blog-$(date +%F).tar.gz
        """)

    @OptionGroup var siteOptions: SiteOptions
    @Argument(help: "The archive to write (must not exist).") var file: String

    func run() async throws {
        let saved = try await reportingErrors {
            let blog = try siteOptions.openBlog()
            do {
                return try SiteBackup.create(blog: blog, archive: URL(fileURLWithPath: file).standardizedFileURL)
            } catch let failure as SiteBackup.Failure { throw CLIError(failure.description) }
        }
        print("saved \(saved.joined(separator: ", ")) to \(file)")
    }
}

struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore", abstract: "Put a backup made by `lectern backup` back into the site folder.",
        discussion: """
        Refuses while a server runs for the site. Checks the database's integrity before touching anything, keeps \
        the site folder (its owner and mode), gives what it restores the folder's owner, then builds the site.

        Example: systemctl stop lectern && lectern restore -s /var/lib/lectern blog-2026-11-23.tar.gz && systemctl start lectern
        """)

    @OptionGroup var siteOptions: SiteOptions
    @Argument(help: "The archive to restore.") var file: String

    func run() async throws {
        let restored = try await reportingErrors {
            do {
                let restored = try SiteBackup.restoreAndBuild(archive: URL(fileURLWithPath: file).standardizedFileURL, into: siteOptions.root)
                print("rebuilt: \(restored.written) files written")
                return restored.parts
            } catch let failure as SiteBackup.Failure { throw CLIError(failure.description) }
        }
        print("restored \(restored.joined(separator: ", ")) into \(siteOptions.root.path)")
    }
}
