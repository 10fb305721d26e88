import Foundation
import LecternRuntime
import Synchronization

/// `lectern build` starts stamping the sources before argument-parser parses the command line:
/// the parse is 3–5 ms of reflection on one core (uprobes), the walk that decides what to
/// rebuild (and then starts decoding the parse cache) about as long on the other, and the build
/// needs the walk first. The site folder is read from the arguments here only when they are of the plain
/// kinds below; anything else waits for argument-parser. The walk only reads, and a build uses
/// it only if argument-parser names the same folder: a wrong guess costs a walk, not a wrong build.
extension BuildCommand {
    private static let early = Mutex<SourceWalk?>(nil)

    static func startWalkEarly(_ arguments: ArraySlice<String> = CommandLine.arguments.dropFirst()) {
        guard arguments.first == BuildCommand.configuration.commandName, let site = siteFolder(in: arguments.dropFirst()) else { return }
        let walk = SourceWalk(root: URL(fileURLWithPath: site))
        early.withLock { $0 = walk }
    }

    /// The walk started early, if it is of `root`.
    static func earlyWalk(of root: URL) -> SourceWalk? {
        early.withLock { walk in
            defer { walk = nil }
            return walk?.root == root.standardizedFileURL ? walk : nil
        }
    }

    /// The `--site` folder of `lectern build [-q] [--drafts] [--future] [-s DIR]`, "." when not
    /// given; nil for anything else (`--output`, which builds elsewhere, combined flags, help, mistakes).
    static func siteFolder(in arguments: ArraySlice<String>) -> String? {
        var site = "."
        var rest = arguments
        while let argument = rest.popFirst() {
            switch argument {
            case "-q", "--quiet", "--drafts", "--future":
                continue
            case "-s", "--site":
                guard let value = rest.popFirst() else { return nil }
                site = value
            default:
                guard argument.hasPrefix("--site=") else { return nil }
                site = String(argument.dropFirst("--site=".count))
            }
        }
        return site
    }
}
