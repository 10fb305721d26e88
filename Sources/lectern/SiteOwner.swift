import Foundation
import Glibc

/// Who may run commands on a site. A command run as root (an easy `sudo` slip) on a site that
/// another user owns would leave root-owned files in it that the service, running as that user,
/// cannot replace: it refuses instead, naming the user to run it as.
enum SiteOwner {
    /// The message refusing `command` on `root`, or nil when it may run: not root, a site that
    /// does not exist yet (`init`), one root owns, or `restore`, which an administrator runs as
    /// root by design and which gives what it writes to the site folder's owner.
    static func refusal(root: URL, command: String, effectiveUser: uid_t = geteuid()) -> String? {
        guard effectiveUser == 0, command != "restore" else { return nil }
        var status = stat()
        guard stat(root.path, &status) == 0, status.st_uid != 0 else { return nil }
        let owner = userName(status.st_uid) ?? "uid \(status.st_uid)"
        let asOwner = userName(status.st_uid).map { "sudo -u \($0) lectern \(command) …" } ?? "lectern as uid \(status.st_uid)"
        return "\(root.path) belongs to \(owner), and this runs as root: files it wrote would be root's, "
            + "which the blog's service cannot replace. Run it as the owner: \(asOwner)"
    }

    /// Files a command writes in a site others may not enter are not for others either, whatever
    /// the umask it was started with: `sudo -u lectern lectern publish` (umask 022) writes
    /// `public/` as the service does (`UMask=0027`), not readable by others. A site others may
    /// enter (a writer's own folder, 0755) keeps the umask as it is. Called while parsing, before
    /// any thread of ours starts (the umask is the process's).
    static func keepPrivateFromOthers(root: URL) {
        var status = stat()
        guard stat(root.path, &status) == 0, status.st_mode & 0o007 == 0 else { return }
        let current = umask(0o077)
        umask(current | 0o007)
    }

    private static func userName(_ uid: uid_t) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else { return nil }
        return String(cString: name)
    }
}
