import ArgumentParser
import BlogModel
import Foundation
import LecternRuntime
import Site

@main
struct Lectern: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "lectern",
        abstract: "A blog engine that pre-renders Markdown and federates over ActivityPub.",
        version: version,
        subcommands: [InitCommand.self, NewCommand.self, BuildCommand.self, ServeCommand.self, PublishCommand.self,
                      StatusCommand.self, DoctorCommand.self, BackupCommand.self, RestoreCommand.self, DeliverCommand.self, DeliveriesCommand.self, ImportCommand.self, HighlightCommand.self, FollowersCommand.self, SubscribersCommand.self, StatsCommand.self, FollowCommand.self, UnfollowCommand.self, FollowingCommand.self, BridgeCommand.self, CommentsCommand.self,
                      BlocksCommand.self, DigestCommand.self, KeysCommand.self, MoveCommand.self, MigrateCommand.self, ThemeCommand.self, VersionCommand.self])

    /// Runs the command; a `CLIError` thrown anywhere prints as `error: …` with exit status 1,
    /// like every other failure of ours (argument-parser would print `Error: …`).
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let error as CLIError {
            FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
            exit(withError: ExitCode.failure)
        } catch {
            fail(error)
        }
    }

    /// Any other failure, usage mistakes included, as docs/cli.md says: `error: …` (with
    /// argument-parser's usage lines after it) and exit status 1. Help, `--version` and a
    /// command's own exit status pass through unchanged.
    static func fail(_ error: any Error) -> Never {
        if error is ExitCode || exitCode(for: error) == .success { exit(withError: error) }
        var message = fullMessage(for: error)
        if message.hasPrefix("Error: ") { message = String(message.dropFirst("Error: ".count)) }
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
        exit(withError: ExitCode.failure)
    }
}

/// `--site DIR`, shared by every command that works on an existing site.
struct SiteOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "The site folder (holding lectern.yml).")
    var site: String = "."

    var root: URL { Self.root(of: site) }

    static func root(of site: String) -> URL { URL(fileURLWithPath: site).standardizedFileURL }

    /// Refuses to work as root on a site another user owns, and keeps from others what a site
    /// closed to them holds (see `SiteOwner`).
    func validate() throws {
        let command = CommandLine.arguments.dropFirst().first.flatMap { $0.hasPrefix("-") ? nil : $0 } ?? "…"
        if let refusal = SiteOwner.refusal(root: root, command: command) { throw CLIError(refusal) }
        SiteOwner.keepPrivateFromOthers(root: root)
    }
}

/// Prints `error: …` and exits non-zero, the CLI's one way of failing.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension AsyncParsableCommand {
    /// Runs `body`, turning build and I/O errors into `error: …` with exit status 1.
    func reportingErrors<T>(_ body: () async throws -> T) async throws -> T {
        try await CommandFailure.reporting(body)
    }
}

/// How every command fails: `error: …` on standard error, exit status 1.
enum CommandFailure {
    static func reporting<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as SiteError {
            FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
            throw ExitCode.failure
        } catch let error as CLIError {
            FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
            throw ExitCode.failure
        } catch let error as ExitCode {
            throw error
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}
