import ArgumentParser
import Foundation
import Site

struct ThemeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "theme", abstract: "The built-in theme's templates and assets, to change them.",
        discussion: "Example: lectern theme export -s mysite   # then edit mysite/theme/post.mustache",
        subcommands: [Export.self], defaultSubcommand: Export.self)

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write the built-in theme's templates and assets into theme/, to change them there.",
            discussion: """
                A file in theme/ takes the place of the built-in one of the same name; a build right after
                the export is byte for byte the one before. Files already in theme/ (your changes) are kept
                unless --force; a template you do not change can be deleted again, and the built-in one
                applies (and follows upgrades).

                Example: lectern theme export -s mysite; lectern theme export -s mysite post.mustache style.css
                """)

        @OptionGroup var siteOptions: SiteOptions
        @Argument(help: "Only these files (post.mustache, style.css…); all of them without.") var files: [String] = []
        @Flag(help: "Replace files already in theme/.") var force = false

        func validate() throws {
            for name in files where Theme.embeddedFiles[name] == nil {
                throw CLIError("\(name) is not a file of the built-in theme (they are: \(Theme.embeddedFiles.keys.sorted().joined(separator: ", ")))")
            }
        }

        func run() async throws {
            let folder = siteOptions.root.appendingPathComponent("theme")
            let names = files.isEmpty ? Theme.embeddedFiles.keys.sorted() : files
            var written: [String] = [], kept: [String] = []
            try await reportingErrors {
                guard FileManager.default.fileExists(atPath: siteOptions.root.appendingPathComponent("lectern.yml").path) else {
                    throw CLIError("\(siteOptions.root.path) holds no lectern.yml: not a site folder")
                }
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
                for name in names {
                    let target = folder.appendingPathComponent(name)
                    if FileManager.default.fileExists(atPath: target.path), !force { kept.append(name); continue }
                    try Data(Theme.embeddedFiles[name]!).write(to: target)
                    written.append(name)
                }
            }
            if !written.isEmpty { print("wrote \(written.count) file(s) into \(folder.path): \(written.joined(separator: ", "))") }
            if !kept.isEmpty { print("kept \(kept.count) file(s) already there (--force replaces them): \(kept.joined(separator: ", "))") }
        }
    }
}
