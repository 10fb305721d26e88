import Delivery
import Federation
import Foundation
import LecternCrypto
import LecternServer
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

    /// The blog's ActivityPub face with its posts loaded (for publishing and digests).
    static func openLoaded(root: URL, includeDrafts: Bool = false) throws -> ActivityPubSite {
        let config = try SiteConfig.load(from: root)
        let activityPub = try openActivityPub(root: root, config: config)
        try activityPub.reload(content: try ContentLoader(root: root, timeZone: config.timeZone).load(includeDrafts: includeDrafts))
        return activityPub
    }

    /// Tells a running server that what pages show changed (it re-renders within 2 s), and
    /// rebuilds the files now for when none runs.
    static func discussionsChanged(root: URL, store: Store) throws {
        try store.setSetting(SiteRuntime.discussionsChangedKey, String(Date().timeIntervalSince1970))
        try SiteBuilder(root: root).build(SiteBuilder.Options(discussions: try Discussions(store: store).all()))
    }
}
