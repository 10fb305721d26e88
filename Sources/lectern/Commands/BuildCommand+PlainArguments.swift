import Foundation

/// `lectern build` with plain arguments is read here, not by argument-parser: its parse reflects
/// over the command's properties and looks up their conformances, 3–5 ms on the critical path of
/// every rebuild (uprobes) and 15.9 M of a one-post rebuild's 132 M instructions (callgrind).
/// The plain forms are the ones argument-parser reads one way only; anything else (help,
/// `--output`, combined or repeated flags, a mistake) goes to argument-parser, which reads it,
/// or reports it, as always.
extension BuildCommand {
    /// The request of `lectern build [-q|--quiet] [--drafts] [--future] [-s DIR|--site DIR|--site=DIR]`,
    /// each option at most once and the folder neither empty nor starting with `-` (argument-parser
    /// takes `-s -q` for a missing value); nil for anything else.
    static func plainRequest(in arguments: ArraySlice<String>) -> BuildRequest? {
        guard arguments.first == configuration.commandName else { return nil }
        var site: String?, quiet = false, drafts = false, future = false
        func once(_ flag: inout Bool) -> Bool {
            defer { flag = true }
            return !flag
        }
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "-q", "--quiet": guard once(&quiet) else { return nil }
            case "--drafts": guard once(&drafts) else { return nil }
            case "--future": guard once(&future) else { return nil }
            case "-s", "--site":
                guard site == nil, let value = rest.popFirst() else { return nil }
                site = value
            default:
                guard site == nil, argument.hasPrefix("--site=") else { return nil }
                site = String(argument.dropFirst("--site=".count))
            }
        }
        if let site, site.isEmpty || site.hasPrefix("-") { return nil }
        return BuildRequest(root: SiteOptions.root(of: site ?? "."), drafts: drafts, future: future, quiet: quiet)
    }
}
