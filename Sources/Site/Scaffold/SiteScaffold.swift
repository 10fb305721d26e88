import BlogModel
import Foundation

/// Creates a new site folder: configuration, example posts that show every feature, one page.
/// Templates are not copied: the default theme is built in, and `theme/` only holds overrides.
///
/// What is not published is the owner's alone, whatever the umask: `content/` (drafts among
/// it), `theme/` and `lectern.yml`. The web server's group, which serves `public/` (0750 site
/// folder, docs/deploy.md), can read nothing else.
public enum SiteScaffold {
    /// Modes of what only the blog's own user reads.
    static let privateFolderMode: Int = 0o700
    static let privateFileMode: Int = 0o600
    public static func create(at root: URL, title: String = "Field Notes", baseURL: String = "http://127.0.0.1:8080",
                              owner: String? = nil) throws {
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: root.appendingPathComponent(SiteConfig.fileName).path) {
            throw SiteError.io(path: root.appendingPathComponent(SiteConfig.fileName).path,
                               message: "a site already exists here")
        }
        for folder in ["content/posts", "content/pages", "static/images", "theme"] {
            try fileManager.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let files: [(String, String)] = [
            (SiteConfig.fileName, ExamplePosts.config(title: title, baseURL: baseURL, owner: owner)),
            ("content/posts/2025-01-12-welcome-to-lectern.md", ExamplePosts.welcome),
            ("content/posts/2025-02-03-markdown-tour.md", ExamplePosts.markdownTour),
            ("content/posts/2025-03-21-cafe-notes.md", ExamplePosts.cafeNotes),
            ("content/posts/2025-04-02-unfinished-thoughts.md", ExamplePosts.draft),
            ("content/pages/about.md", ExamplePosts.about),
            ("static/images/lectern.svg", ExamplePosts.logo),
        ]
        for (path, text) in files {
            try Data(text.utf8).write(to: root.appendingPathComponent(path))
        }
        for (path, mode) in [("content", privateFolderMode), ("theme", privateFolderMode), (SiteConfig.fileName, privateFileMode)] {
            try fileManager.setAttributes([.posixPermissions: mode], ofItemAtPath: root.appendingPathComponent(path).path)
        }
    }

    /// Writes `content/posts/YYYY-MM-DD-slug.md` for a new post and returns its path.
    public static func newPost(in root: URL, title: String, date: Date = Date(), timeZone: TimeZone) throws -> URL {
        guard !title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw SiteError.io(path: title, message: "the title is empty")
        }
        // A title with no letters or digits (`🚀`) is a title still: the post gets a slug of its
        // own, written into its front matter, as the build would need one.
        let fromTitle = Slug.make(title)
        let slug = fromTitle.isEmpty ? "post-\(Int(date.timeIntervalSince1970))" : fromTitle
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd"
        let day = formatter.string(from: date)
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxx"
        let url = root.appendingPathComponent("content/posts/\(day)-\(slug).md")
        guard !FileManager.default.fileExists(atPath: url.path) else {
            throw SiteError.io(path: url.path, message: "already exists")
        }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let escaped = title.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let slugLine = fromTitle.isEmpty ? "slug: \(slug)\n" : ""
        let text = "---\ntitle: \"\(escaped)\"\n\(slugLine)date: \(formatter.string(from: date))\ntags: []\ndraft: true\n---\n\nWrite here.\n"
        try Data(text.utf8).write(to: url)
        return url
    }

    /// The site path (`/2025/my-post/`) of the post in `file` (under `root`), as a build gives it.
    public static func sitePath(ofPost file: URL, root: URL, timeZone: TimeZone) throws -> String {
        let relative = String(file.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
        return try ContentParser(timeZone: timeZone).post(source: String(contentsOf: file, encoding: .utf8), file: relative).path
    }
}
