import Foundation

/// One Eleventy content file as the importer sees it: its front matter merged over its data
/// cascade, whether it is a post, which of its tags only name a collection, and its old URL.
enum EleventySite {
    /// Tags that put a file in a blog's collection rather than describe it.
    static let collectionMarkers: Set<String> = ["post", "posts", "blog", "blogpost", "blogposts", "article", "articles"]

    struct Page {
        var inputPath: String
        var data: [String: Any]
        var computedPermalink: String?
        /// Tags given by directory data or naming the posts collection: not the post's own.
        var collectionTags: Set<String>
        /// Where the permalink comes from, for the report.
        var permalinkSource = "front matter"
        /// Whether the front matter or a data file states the permalink (else Eleventy's default).
        var permalinkStated = false
        /// Whether the file's own front matter states it (not a data file's rule).
        var ownPermalink = false
        var skipReason: String?
        /// The data files that set the permalink in a way the importer does not read.
        var unreadablePermalink: String?

        func isPost(date: Date?, sections: [String]) -> Bool {
            guard date != nil else { return false }
            let tags = FrontMatterReader.value(data, path: "tags")
            let list = (tags as? [Any])?.compactMap { $0 as? String } ?? (tags as? String).map { [$0] } ?? []
            let layout = (data["layout"] as? String ?? "").lowercased()
            return list.contains { EleventySite.collectionMarkers.contains($0.lowercased()) }
                || layout.contains("post") || layout.contains("article") || !sections.isEmpty
        }

        func url(date: Date?) -> EleventyPermalink.Outcome {
            if let unreadablePermalink { return .unknown("set in \(unreadablePermalink)") }
            var data = self.data
            if let computedPermalink { data["permalink"] = computedPermalink }
            return EleventyPermalink.url(for: EleventyPermalink.Page(inputPath: inputPath, date: date, data: data))
        }
    }

    /// Reads `file`'s data cascade and merges `front`'s fields over it (`front.fields` becomes the
    /// merged data, so every later read sees what Eleventy's templates saw).
    static func page(_ file: StaticSiteFolder.ContentFile, front: inout FrontMatterReader, project: EleventyProject) -> Page {
        let cascade = project.data(for: file.url)
        let own = front.fields
        front.fields = EleventyProject.merge(cascade.fields, own)
        let inherited = FrontMatterReader.value(cascade.fields, path: "tags")
        let inheritedTags = (inherited as? [Any])?.compactMap { $0 as? String } ?? (inherited as? String).map { [$0] } ?? []
        let inputPath = String(file.url.standardizedFileURL.path.dropFirst(project.input.path.count))
            .trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        var page = Page(inputPath: inputPath, data: front.fields, computedPermalink: cascade.computedPermalink,
                        collectionTags: collectionMarkers.union(inheritedTags))
        if !cascade.unreadable.isEmpty && cascade.computedPermalink == nil && own["permalink"] == nil {
            // A data file may set the permalink in a way the importer cannot read: say which.
            page.unreadablePermalink = cascade.unreadable.joined(separator: ", ")
            page.permalinkSource = "a data file in a shape the importer does not read, never run"
        } else if cascade.computedPermalink != nil {
            page.permalinkSource = "eleventyComputed in a data file"
            page.permalinkStated = true
        } else if own["permalink"] != nil {
            page.permalinkStated = true
            page.ownPermalink = true
        } else if cascade.fields["permalink"] != nil {
            page.permalinkSource = "a directory data file"
            page.permalinkStated = true
        }
        if front.fields["pagination"] != nil { page.skipReason = "a list page (pagination), not a post or page" }
        return page
    }
}
