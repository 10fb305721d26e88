import ArgumentParser
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
                      StatusCommand.self, DoctorCommand.self, BackupCommand.self, RestoreCommand.self, DeliverCommand.self, DeliveriesCommand.self, ImportCommand.self, HighlightCommand.self, FollowersCommand.self, CommentsCommand.self,
                      BlocksCommand.self, DigestCommand.self, KeysCommand.self, MoveCommand.self, MigrateCommand.self, VersionCommand.self])

    /// Runs the command; a `CLIError` thrown anywhere prints as `error: …` with exit status 1,
    /// like every other failure of ours (argument-parser would print `Error: …`).
    static func main() async {
        let arguments = CommandLine.arguments.dropFirst()
        // Every command but the server is a short run; decided by the name alone, before
        // anything allocates.
        if arguments.first != ServeCommand.configuration.commandName { ShortRun.tuneAllocator() }
        if let request = BuildCommand.plainRequest(in: arguments) {
            do {
                // The sources' walk runs on a thread of its own while the blog opens.
                try await BuildCommand.build(request, sources: SourceWalk(root: request.root))
            } catch {
                fail(error)
            }
        }
        do {
            var command: any ParsableCommand
            if let named = parseNamedCommand() { command = named } else { command = try parseAsRoot() }
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

    /// The command named first, parsed on its own: argument-parser otherwise reflects over all
    /// 21 commands' arguments and its completion-script commands before it parses one (1.5 ms
    /// of every run: uprobes on `parseAsRoot`, 5.4 → 3.8 ms). Anything the command alone
    /// does not accept — help, completion scripts, a mistake — returns nil and goes the whole
    /// way, so what argument-parser prints (`lectern build --help`, usage lines) is unchanged.
    static func parseNamedCommand(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> (any ParsableCommand)? {
        guard let name = arguments.first, let command = configuration.subcommands.first(where: { $0._commandName == name }),
              let parsed = try? command.parseAsRoot(Array(arguments.dropFirst()))
        else { return nil }
        // `--help` parses into argument-parser's own help command, which would print this
        // command's help as if it were the root: only ours are taken.
        func ours(_ type: any ParsableCommand.Type) -> Bool {
            type == Swift.type(of: parsed) || type.configuration.subcommands.contains(where: ours)
        }
        return ours(command) ? parsed : nil
    }
}

/// `--site DIR`, shared by every command that works on an existing site.
struct SiteOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "The site folder (holding lectern.yml).")
    var site: String = "."

    var root: URL { Self.root(of: site) }

    static func root(of site: String) -> URL { URL(fileURLWithPath: site).standardizedFileURL }
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
