import ArgumentParser
import Foundation
import LecternRuntime

/// `lectern doctor`: a checklist with a fix per failure; exit 1 if anything failed.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor", abstract: "Check the configuration, keys, database, disk, clock, queue and public address.",
        discussion: """
        Each check prints ✓, ! (warning) or ✗ (failed) with what to do. Exits 1 when any check failed.
        JSON: [{name, status: ok|warning|failed, detail, fix?}].

        Example: lectern doctor -s /var/lib/lectern
                 lectern doctor --offline --json
        """)

    @OptionGroup var siteOptions: SiteOptions
    @Flag(help: "Do not try to reach the public baseURL.") var offline = false
    @Flag(help: "Print JSON instead of text.") var json = false

    func run() async throws {
        let checks = await Checkup(root: siteOptions.root).run(online: !offline)
        if json {
            try JSONOutput.print(checks)
        } else {
            let colour = isatty(STDOUT_FILENO) == 1
            for check in checks {
                let (mark, code) = switch check.status {
                case .ok: ("✓", "32")
                case .warning: ("!", "33")
                case .failed: ("✗", "31")
                }
                print((colour ? "\u{1B}[\(code)m\(mark)\u{1B}[0m" : mark) + " \(check.name): \(check.detail)")
                if let fix = check.fix { print("    fix: \(fix)") }
            }
        }
        if checks.contains(where: { $0.status == .failed }) { throw ExitCode.failure }
    }
}
