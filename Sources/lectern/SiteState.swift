import Federation
import Foundation
import LecternCrypto
import Logging
import Site
import Store

/// Where a site keeps its state, and opening it: `data/lectern.sqlite` and `data/keys/`.
enum SiteState {
    static func databasePath(root: URL) -> String { root.appendingPathComponent("data/lectern.sqlite").path }
    static func keys(root: URL) -> KeyStore { KeyStore(folder: root.appendingPathComponent("data/keys")) }

    static func openStore(root: URL) throws -> Store {
        do { return try Store(path: databasePath(root: root)) } catch let error as StoreError { throw CLIError(error.description) }
    }

    static func openActivityPub(root: URL, config: SiteConfig) throws -> ActivityPubSite {
        do {
            return try ActivityPubSite(config: config, store: try openStore(root: root), keys: keys(root: root))
        } catch let error as CryptoError {
            throw CLIError(error.description)
        }
    }

    /// Re-reads the posts and refreshes the ActivityPub documents (after every build).
    static func refresh(_ activityPub: ActivityPubSite, root: URL, config: SiteConfig, options: SiteBuilder.Options,
                        logger: Logger) throws {
        let content = try ContentLoader(root: root, timeZone: config.timeZone).load(includeDrafts: options.includeDrafts)
        let sync = try activityPub.reload(content: content)
        if !sync.isEmpty {
            logger.info("posts: \(sync.created.count) new, \(sync.updated.count) changed, \(sync.deleted.count) removed, \(sync.restored.count) restored")
        }
    }
}
