import BlogModel

/// The settings a running `lectern serve` cannot take when it reads `lectern.yml` again (SIGHUP,
/// or the file changed): the address it listens on, bound at start, and `baseURL`, which the
/// inbox routes check signed requests against and every ActivityPub id is made of. Every other
/// setting applies at once; these are named in the log until the next restart.
enum RestartOnlySettings {
    static func changes(from old: SiteConfig, to new: SiteConfig) -> [String] {
        var changed: [String] = []
        if old.server.host != new.server.host { changed.append("server.host (\(old.server.host) → \(new.server.host))") }
        if old.server.port != new.server.port { changed.append("server.port (\(old.server.port) → \(new.server.port))") }
        if old.baseURL != new.baseURL { changed.append("baseURL (\(old.baseURL) → \(new.baseURL))") }
        return changed
    }
}
