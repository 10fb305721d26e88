import ActivityPub
import ActivityStreams
import BlogModel
import DataIntegrity
import Foundation
import OutboundHTTP
import HTTPSignatures
import LecternCrypto
import Storage
import Synchronization

/// The blog's ActivityPub face: every document the server hands out, kept current with the
/// site. The server asks; this answers with encoded JSON (or nil for "not here").
///
/// ```swift
/// let activityPub = try BlogActor(config: config, store: store, keys: KeyStore(folder: keysFolder))
/// try activityPub.reload(content: try ContentLoader(root: root, timeZone: config.timeZone).load(includeDrafts: false))
/// let actor = try activityPub.actorJSON
/// ```
public final class BlogActor: Sendable {
    public static let softwareVersion = "0.1.0"

    /// The one User-Agent of every request the blog makes (GETs, deliveries, webmentions): the
    /// software, its version and the blog, so another server's operator knows who is asking.
    public static func userAgent(_ config: SiteConfig) -> String { "Lectern/\(softwareVersion) (+\(config.baseURL)/)" }

    /// A client for the blog's own outgoing requests, as `lectern.yml` allows them.
    public static func client(_ config: SiteConfig) -> FetchClient {
        var client = FetchClient(allowPrivateAddresses: config.federation.allowPrivateAddresses)
        client.userAgent = userAgent(config)
        return client
    }
    /// The store setting that holds the account the blog moved to (`lectern move`).
    public static let movedToKey = "moved_to"

    public let config: SiteConfig
    public let urls: FederationURLs
    public let store: Store
    /// Signs the blog's deliveries; its public half is in the actor document. Both keys are read
    /// from their files on first use: OpenSSL's parsing of the two took 4 ms of every command
    /// that opens the blog, `lectern build` included, which never signs.
    public var actorKey: PrivateKey { get throws { try keysInUse.actor.value } }
    /// The id of `actorKey` (`<actor>#main-key` until a rotation).
    public let actorKeyID: String
    /// The blog's keys over time: the retired ones still answer for a while.
    public let keyring: ActorKeyring
    /// When the blog first federated: the actor's `published`.
    public let published: Date
    /// Signs outgoing GETs.
    public var instanceKey: PrivateKey { get throws { try keysInUse.instance.value } }
    /// Makes the object integrity proofs (FEP-8b32) of what the blog sends; its public half is the
    /// actor's `assertionMethod`.
    public var assertionKey: PrivateKey { get throws { try keysInUse.assertion.value } }
    /// The id of `assertionKey` (`<actor>#ed25519-key` until a rotation).
    public let assertionKeyID: String
    /// Signs the activities the blog queues (with the current key, read from the keyring each time).
    public let proofs: ActivityProofs
    private let keysInUse: (actor: OnFirstUse<PrivateKey>, instance: OnFirstUse<PrivateKey>, assertion: OnFirstUse<PrivateKey>)
    /// The blog's and the instance's actor documents, built and encoded on first use: 1.2 ms of
    /// every command that opens the blog, most of which never show them.
    private let actors: OnFirstUse<ActorDocuments>
    private let catalog = Mutex(PostCatalog())
    /// Each post's body rendered for federation, kept while its source is unchanged.
    private let renderings: Renderings
    /// The content of the last reload, to re-encode Articles when only their reactions changed.
    private let lastContent = Mutex<SiteContent?>(nil)
    private let discovery: Discovery
    /// Remote public keys, fetched (signed by the instance actor) and cached in the store.
    public let remoteKeys: RemoteKeyProvider
    /// The hosts signed requests may be addressed to, read from the configuration once.
    public let audience: SignatureAudience
    /// Readers' activity intents (FEP-3b86), for the reply form.
    let intentLookup: IntentLookup

    /// `render` makes a post's body for other servers (`MarkdownRenderer.federatedBody`).
    /// `published` is the actor's creation time; by default, when its key was made.
    public init(config: SiteConfig, store: Store, keys: KeyStore, render: @escaping FederatedBody.Renderer, published: Date? = nil) throws {
        self.config = config
        self.renderings = Renderings(render: render)
        self.urls = FederationURLs(config: config)
        self.store = store
        keyring = try ActorKeyring.load(from: store.values)
        actorKeyID = keyring.keyID(urls)
        // Made now if missing (a new blog's keys date its actor), read when first needed; a file
        // gone by then is an error naming it, never a new key.
        let (actorKeyFile, instanceKeyFile) = (keys.url(named: keyring.keyName), keys.url(named: KeyStore.instanceActor))
        let assertionKeyFile = keys.url(named: keyring.assertionKeyName)
        // A blog made before object integrity proofs gets its Ed25519 key here, on first use.
        try keys.createMissing([(keyring.keyName, .rsa(bits: 2048)), (KeyStore.instanceActor, .rsa(bits: 2048)),
                                (keyring.assertionKeyName, .ed25519)])
        let keysInUse = (actor: OnFirstUse { try KeyFile.load(at: actorKeyFile) }, instance: OnFirstUse { try KeyFile.load(at: instanceKeyFile) },
                         assertion: OnFirstUse { try KeyFile.load(at: assertionKeyFile) })
        self.keysInUse = keysInUse
        assertionKeyID = keyring.assertionKeyID(urls)
        proofs = ActivityProofs(values: store.values, urls: urls, keys: keys)
        let builder = ActorBuilder(config: config, urls: urls)
        // The actor's `published`: when its first key was made, which is when the blog first federated.
        let created = published ?? keyring.published ?? Self.modified(keys.url(named: KeyStore.actor).path)
            ?? Date(timeIntervalSince1970: 0)
        self.published = created
        let (keyID, movedTo, assertionKeyID, actorID) = (actorKeyID, try store.values.setting(Self.movedToKey), assertionKeyID, urls.actor)
        actors = OnFirstUse {
            let (actorPEM, instancePEM) = (try keysInUse.actor.value.publicKey.pemSPKI(), try keysInUse.instance.value.publicKey.pemSPKI())
            let multikey = MultikeyDocument(id: assertionKeyID, controller: actorID,
                                            publicKeyMultibase: Multikey.ed25519(publicKey: try keysInUse.assertion.value.publicKey.rawEd25519()))
            let actor = builder.blogActor(publicKeyPEM: actorPEM, keyID: keyID, assertionKey: multikey, published: created, movedTo: movedTo)
            return ActorDocuments(actor: actor, actorJSON: try ASEncoder.encode(actor),
                                  instanceJSON: try ASEncoder.encode(builder.instanceActor(publicKeyPEM: instancePEM, published: created)))
        }
        discovery = Discovery(urls: urls, softwareVersion: Self.softwareVersion)
        let fetcher = RemoteFetcher(client: Self.client(config),
                                    instanceKeyID: urls.instanceKeyID, instanceKey: { try keysInUse.instance.value },
                                    signatures: Self.signatureKnock(config), memory: Self.signatureMemory(store.deliveries, config))
        remoteKeys = RemoteKeyProvider(fetcher: fetcher, actors: store.actors, blocks: store.blocks)
        intentLookup = IntentLookup(fetcher: fetcher)
        audience = SignatureAudience(config: config)
    }

    /// Reads both keys now: what a server does before it listens or takes new settings, so that
    /// a key it cannot read stops it there rather than at its first signature.
    public func readKeys() throws {
        _ = try (actorKey, instanceKey, assertionKey)
    }

    public var actorDocument: ActorDocument { get throws { try actorDocuments().actor } }
    public var actorJSON: Data { get throws { try actorDocuments().actorJSON } }
    public var instanceActorJSON: Data { get throws { try actorDocuments().instanceJSON } }

    private func actorDocuments() throws -> ActorDocuments { try actors.value }

    // MARK: authorized fetch

    /// Whether ActivityPub GETs (other than the actors and discovery) must be signed.
    public var requiresSignedFetch: Bool { config.federation.authorizedFetch }

    /// Verifies a signed GET (authorized fetch). Throws `SignatureError` saying why not.
    public func verifyFetch(_ request: HTTPRequestParts, now: Date = Date()) async throws -> VerifiedSignature {
        try await SignatureVerifier(now: now, audience: audience).verify(request, keys: remoteKeys)
    }

    /// Whether a verified key belongs to a blocked actor or domain.
    public func isBlocked(keyID: String) throws -> Bool {
        guard let owner = try store.actors.remoteKey(id: keyID)?.actorID else { return false }
        return try store.blocks.isBlocked(actorID: owner)
    }

    /// Records the site's posts in the store (new ones get their permanent id, moved ones keep
    /// theirs, vanished ones are marked deleted) and re-encodes every document. Returns what
    /// changed, for the publisher.
    @discardableResult
    public func reload(content: SiteContent, now: Date = Date()) throws -> PostSync {
        let rendered = renderings.update(content.posts)
        let builder = PostConversion(config: config, urls: urls)
        let known = Dictionary(try store.posts.publishedPosts().map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let settings = builder.fingerprintSettings, legacySettings = builder.legacyFingerprintSettings
        let current = content.posts.map { post in
            // A post whose source, path and settings are those its stored fingerprint was made
            // from has that fingerprint still: only new and changed posts are converted to learn it.
            let source = ContentHash(post.sourceHash.hex, post.path, post.sourcePath, settings).hex
            let stored = known[post.path].flatMap { $0.fingerprintSource == source ? $0.contentHash : nil }
            // Made from the same post and settings by the previous version: restated, no Update.
            let restated = stored == nil
                && known[post.path]?.fingerprintSource == ContentHash(post.sourceHash.hex, post.path, post.sourcePath, legacySettings).hex
            return CurrentPost(record: PostRecord(path: post.path, apID: config.absoluteURL(post.path), title: post.title,
                                                  contentHash: stored ?? builder.visibleFingerprint(post: post, rendered: rendered[post.path]!),
                                                  publishedAt: post.date, updatedAt: post.updated, pinned: post.pinned,
                                                  source: post.sourcePath, federate: config.federates(post),
                                                  apType: config.federation.postsAs, fingerprintSource: source),
                               declaredID: post.declaredID, fingerprintRestated: restated)
        }
        let sync = try store.posts.syncPosts(current, now: now)
        lastContent.withLock { $0 = content }
        try rebuildCatalog(content: content, rendered: rendered)
        return sync
    }

    /// A post as the newsletter mails it: its title, address, summary and body (links absolute,
    /// as other servers get it); nil for a post the blog no longer has.
    public struct MailCopy: Sendable {
        public let title: String
        public let url: String
        public let summary: String?
        public let html: String
    }

    public func mailCopy(path: String) -> MailCopy? {
        guard let post = lastContent.withLock({ $0 })?.posts.first(where: { $0.path == path }),
              let body = renderings.current[path] else { return nil }
        return MailCopy(title: post.title, url: config.absoluteURL(path), summary: post.summary,
                        html: PostConversion.federatedHTML(body.html, baseURL: config.baseURL))
    }

    /// Re-encodes the Articles whose like or share counts changed.
    public func refreshReactions() throws {
        guard let content = lastContent.withLock({ $0 }) else { return }
        try rebuildCatalog(content: content, rendered: renderings.current)
    }

    private func rebuildCatalog(content: SiteContent, rendered: [String: FederatedBody]) throws {
        let records = try store.posts.publishedPosts()
        let deleted = try store.posts.deletedPosts()
        let reactions = try store.reactions.allReactionCounts().mapValues { PostCatalog.Reactions(likes: $0.likes, announces: $0.announces) }
        let previous = catalog.withLock { $0 }
        let fresh = try PostCatalog.make(content: content, records: records, deleted: deleted, aliases: try store.posts.postAliases(),
                                         rendered: rendered, builder: PostConversion(config: config, urls: urls),
                                         reactions: reactions, reusing: previous)
        catalog.withLock { $0 = fresh }
    }

    /// A post's external links as it is now (the webmentions it sends), nil when not federated.
    func externalLinks(path: String) throws -> [String]? {
        try catalog.withLock { $0.byPath[path] }?.links
    }

    /// A post's document (Article or Note) as it federates now, for the publisher.
    func federatedDocument(path: String) throws -> FederatedPost? {
        try catalog.withLock { $0.byPath[path] }?.document
    }

    // MARK: posts

    public enum PostDocument: Equatable, Sendable {
        case article(ArticleJSON)
        /// The post was removed: answer 410 with this Tombstone (and the "gone" page to browsers).
        case gone(Data)
        /// On the site but not on the fediverse (`federate: false`): 410 with this Tombstone to
        /// ActivityPub requests; browsers get the page.
        case offFediverse(Data)
        /// A path the post had before it moved: browsers are sent to `to` (301); ActivityPub
        /// requests get the Article, whose id is the post's first URL.
        case moved(to: String, article: ArticleJSON?)
    }

    /// A post's Article (or Note) as served, encoded on the first request for it.
    public struct ArticleJSON: Equatable, Sendable {
        fileprivate let entry: PostCatalog.Entry
        public func data() throws -> Data { try entry.json }
        public static func == (a: ArticleJSON, b: ArticleJSON) -> Bool { a.entry === b.entry }
    }

    /// The document for a post's site path (`/2025/hello/`), if it is or was a post.
    public func post(path: String) -> PostDocument? {
        catalog.withLock { catalog in
            if let entry = catalog.byPath[path] { return .article(ArticleJSON(entry: entry)) }
            if let tombstone = catalog.offFediverse[path] { return .offFediverse(tombstone) }
            if let current = catalog.moved[path] { return .moved(to: current, article: catalog.byPath[current].map(ArticleJSON.init)) }
            return catalog.tombstones[path].map(PostDocument.gone)
        }
    }

    /// Comments on a post that are shown publicly, as a collection of their ids.
    public func replies(postPath: String, page: Int?) throws -> Data? {
        guard catalog.withLock({ $0.byPath[postPath] != nil }) else { return nil }
        let items = try store.comments.approvedComments(postPath: postPath).map { JSONValue.string($0.id) }
        return try CollectionBuilder.document(id: urls.replies(forPostPath: postPath), items: items, page: page)
    }

    /// A post's thread (FEP-7888): the post, then its public comments (every depth), oldest first.
    public func threadContext(postPath: String, page: Int?) throws -> Data? {
        guard let entry = catalog.withLock({ $0.byPath[postPath] }) else { return nil }
        let items = try [JSONValue.string(entry.record.apID)] + store.comments.approvedComments(postPath: postPath).map { JSONValue.string($0.id) }
        return try CollectionBuilder.document(id: urls.context(forPostPath: postPath), items: items, page: page,
                                              attributedTo: urls.actor)
    }

    public enum ReactionCollection: Sendable { case likes, shares }

    /// A post's likes or shares: the count only (who reacted is not published, as on Mastodon).
    public func reactions(postPath: String, _ kind: ReactionCollection) throws -> Data? {
        guard catalog.withLock({ $0.byPath[postPath] }) != nil else { return nil }
        // Counted now, not when the catalog was built: a like is visible the moment it is stored.
        let counts = try store.reactions.reactionCounts(postPath: postPath)
        let context = JSONValue.string(AS.namespace)
        return switch kind {
        case .likes: try ASEncoder.encode(CountCollection(id: urls.likes(forPostPath: postPath), totalItems: counts.likes, context: context))
        case .shares: try ASEncoder.encode(CountCollection(id: urls.shares(forPostPath: postPath), totalItems: counts.announces,
                                                           context: context))
        }
    }

    /// `/actor/keys/<token>`: the current key or one retired less than 7 days ago, as a key
    /// document naming its owner; nil otherwise.
    public func keyDocument(token: String, now: Date = Date()) throws -> Data? {
        let id = urls.actorKey(token)
        // Read now, not when this was built: another process may have just rotated the key.
        let keyring = try ActorKeyring.load(from: store.values)
        let pem: String
        if id == keyring.keyID(urls), let current = keyring.currentPublicKeyPem {
            pem = current
        } else if let retired = keyring.retiredKey(id: id, now: now) {
            pem = retired.publicKeyPem
        } else {
            return nil
        }
        return try ASEncoder.encode(KeyDocument(id: id, owner: urls.actor, publicKeyPem: pem))
    }

    /// What a note or quote authorization id the blog handed out answers.
    public enum SentObjectAnswer: Sendable, Equatable {
        case document(Data)
        /// Deleted: a Tombstone (410).
        case gone(Data)
        /// Not ours, or addressed to others than the one asking.
        case notFound
    }

    /// A sent object, for `fetcher` (the actor whose signature the request carries, if any):
    /// public ones to anyone, addressed ones only to an addressee.
    public func sentObject(id: String, fetchedBy fetcher: String?) throws -> SentObjectAnswer {
        guard let object = try store.sentObjects.sentObject(id: id) else { return .notFound }
        if let recipients = object.recipients, !(fetcher.map(recipients.contains) ?? false) { return .notFound }
        if let deleted = object.deletedAt {
            var tombstone = TombstoneDocument(id: object.id, deleted: ASDate.format(deleted))
            tombstone.formerType = object.type
            return .gone(try ASEncoder.encode(tombstone))
        }
        return .document(Data(object.json.utf8))
    }

    /// The actor a verified key belongs to.
    public func keyOwner(keyID: String) throws -> String? { try store.actors.remoteKey(id: keyID)?.actorID }

    // MARK: actor collections

    public func outbox(page: Int?) throws -> Data {
        let entries = catalog.withLock { $0.newestFirst }
        guard let page else { return try CollectionBuilder.collection(id: urls.outbox, total: entries.count) }
        // Only this page's activities are encoded (each once, then kept with its post).
        let items = try entries.dropFirst((page - 1) * CollectionBuilder.pageSize).prefix(CollectionBuilder.pageSize).map { try $0.create }
        return try CollectionBuilder.page(page, of: urls.outbox, total: entries.count, items: Array(items))
    }

    /// The count is always public; the followers themselves only with `federation.followersPublic`.
    public func followers(page: Int?) throws -> Data {
        let total = try store.followers.followerCount()
        guard config.federation.followersPublic else { return try CollectionBuilder.countOnly(id: urls.followers, total: total) }
        guard let page else { return try CollectionBuilder.collection(id: urls.followers, total: total) }
        let ids = try store.followers.followerIDs(limit: CollectionBuilder.pageSize, offset: (page - 1) * CollectionBuilder.pageSize)
        return try CollectionBuilder.page(page, of: urls.followers, total: total, items: ids.map(JSONValue.string))
    }

    /// The accounts the blog follows whose servers accepted (`lectern follow`), oldest first.
    public func following(page: Int?) throws -> Data {
        let total = try store.following.acceptedFollowCount()
        guard let page else { return try CollectionBuilder.collection(id: urls.following, total: total) }
        let ids = try store.following.acceptedFollowIDs(limit: CollectionBuilder.pageSize, offset: (page - 1) * CollectionBuilder.pageSize)
        return try CollectionBuilder.page(page, of: urls.following, total: total, items: ids.map(JSONValue.string))
    }

    /// The instance actor's collections (`outbox`, `followers`, `following`, `featured`): it
    /// publishes nothing and follows no one, but its document names them, and GoToSocial fetches
    /// them (and logs an error for a missing `featured`). Empty; nil for any other name.
    public func instanceCollection(_ name: String) throws -> Data? {
        guard Self.instanceCollections.contains(name) else { return nil }
        return try CollectionBuilder.inline(id: urls.instanceActor + "/" + name, items: [])
    }

    public static let instanceCollections: Set<String> = ["outbox", "followers", "following", "featured"]

    /// Posts with `pinned: true`, newest first, embedded.
    public func featured() throws -> Data {
        let items = try catalog.withLock { $0.newestFirst.filter(\.post.pinned) }.map { try $0.embedded }
        return try CollectionBuilder.inline(id: urls.featured, items: items)
    }

    // MARK: discovery

    public func webFinger(resource: String) throws -> Data? { try discovery.webFinger(resource: resource) }
    public var hostMeta: String { discovery.hostMeta }
    public func nodeInfoLinks() throws -> Data { try discovery.nodeInfoLinks() }
    public static let nodeInfoVersions = Discovery.nodeInfoVersions
    public func nodeInfo(version: String = "2.1") throws -> Data {
        try discovery.nodeInfo(version: version, localPosts: catalog.withLock { $0.newestFirst.count }, nodeName: config.title)
    }
}

/// The actor documents as served.
private struct ActorDocuments: Sendable {
    let actor: ActorDocument
    let actorJSON: Data
    let instanceJSON: Data
}

extension BlogActor {

    /// When a file was last written (one `stat`: Foundation's `attributesOfItem` also looks up
    /// the owner's and group's names).
    fileprivate static func modified(_ path: String) -> Date? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1_000_000_000)
    }

    /// Makes a post's body for other servers, as this blog does (for a copy of it, `KeyRotation`).
    var render: FederatedBody.Renderer { renderings.render }
}
