import ActivityPub
import ActivityStreams
import BlogModel
import Foundation
import Storage

/// Every post's ActivityPub documents. A post's documents are encoded the first time they are
/// asked for and kept until its source, record or counts change: when a post is published,
/// every follower's server fetches it at once, and this makes that a dictionary lookup, while a
/// start or a reload encodes none of the posts nobody asks for (encoding all 1,000 posts of a
/// blog was 2.6 s of every `lectern serve` start).
struct PostCatalog: Sendable {
    final class Entry: Sendable {
        let post: Post
        let record: PostRecord
        let reactions: Reactions
        private let encoded: OnFirstUse<Encoded>
        private let outgoingLinks: OnFirstUse<[String]>

        struct Encoded: Sendable {
            /// The Article (or Note), as served at the post's URL.
            let document: FederatedPost
            let json: Data
            /// The `Create` as the outbox lists it.
            let create: JSONValue
            /// The document without `@context`, for embedding (featured collection).
            let embedded: JSONValue
        }

        init(post: Post, record: PostRecord, reactions: Reactions, body: FederatedBody, builder: PostConversion) {
            (self.post, self.record, self.reactions) = (post, record, reactions)
            encoded = OnFirstUse {
                let document = builder.document(post: post, rendered: body, record: record, likes: reactions.likes, shares: reactions.announces)
                return Encoded(document: document, json: try ASEncoder.encode(document), create: try ASEncoder.value(builder.create(document)),
                               embedded: try ASEncoder.value(document.embedded))
            }
            outgoingLinks = OnFirstUse { WebmentionLinks.external(html: body.html, baseURL: builder.config.baseURL) }
        }

        var document: FederatedPost { get throws { try encoded.value.document } }
        var json: Data { get throws { try encoded.value.json } }
        var create: JSONValue { get throws { try encoded.value.create } }
        var embedded: JSONValue { get throws { try encoded.value.embedded } }
        /// The external links of its body (webmentions are sent to them).
        var links: [String] { get throws { try outgoingLinks.value } }
    }

    struct Reactions: Equatable, Sendable {
        var likes = 0, announces = 0
    }

    /// Federated posts by site path, and in publication order (newest first).
    private(set) var byPath: [String: Entry] = [:]
    private(set) var newestFirst: [Entry] = []
    /// Removed posts: site path → Tombstone JSON.
    private(set) var tombstones: [String: Data] = [:]
    /// Posts on the site but not on the fediverse (`federate: false`): path → Tombstone JSON.
    private(set) var offFediverse: [String: Data] = [:]
    /// Paths a post had before it moved: old path → the post's path now.
    private(set) var moved: [String: String] = [:]

    /// Builds the catalog from the site's posts, their records and their rendered bodies;
    /// entries of `previous` whose source and record did not change are kept as they are (after
    /// a one-post edit, one post is encoded, not all of them).
    static func make(content: SiteContent, records: [PostRecord], deleted: [PostRecord], aliases: [String: String],
                     rendered: [String: FederatedBody], builder: PostConversion, reactions: [String: Reactions] = [:],
                     reusing previous: PostCatalog = PostCatalog()) throws -> PostCatalog {
        var catalog = PostCatalog()
        let recordsByPath = Dictionary(uniqueKeysWithValues: records.map { ($0.path, $0) })
        for post in content.posts {
            guard let record = recordsByPath[post.path], let body = rendered[post.path] else { continue }
            guard record.federate else {
                catalog.offFediverse[post.path] = try ASEncoder.encode(TombstoneDocument(id: record.apID, deleted: nil))
                continue
            }
            let counts = reactions[post.path] ?? Reactions()
            if let old = previous.byPath[post.path], old.post.sourceHash == post.sourceHash, old.record == record,
               old.reactions == counts {
                catalog.add(old)
                continue
            }
            catalog.add(Entry(post: post, record: record, reactions: counts, body: body, builder: builder))
        }
        for record in deleted {
            let tombstone = TombstoneDocument(id: record.apID, deleted: ASDate.format(record.deletedAt ?? Date()))
            catalog.tombstones[record.path] = try ASEncoder.encode(tombstone)
        }
        for (old, current) in aliases where catalog.byPath[old] == nil { catalog.moved[old] = current }
        return catalog
    }

    private mutating func add(_ entry: Entry) {
        byPath[entry.post.path] = entry
        newestFirst.append(entry)
    }
}
