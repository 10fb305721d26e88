import ActivityPub
import ActivityStreams
import Foundation
import LecternCrypto
import Storage

/// `lectern keys rotate`: a new key pair under a new key id (and a new Ed25519 key, the actor's
/// `assertionMethod`, under a new fragment id). The actor's `publicKey` and every
/// signature switch at once (one store setting), the old private key is deleted (it never signs
/// again), its public half keeps answering at its id for 7 days, and `Update(Person)` with the
/// new key goes to every follower's inbox, so their servers need not wait for a failed
/// verification to fetch it again.
public struct KeyRotation: Sendable {
    public let site: BlogActor
    public let keys: KeyStore
    public let outbox: Outbox

    public init(site: BlogActor, keys: KeyStore, outbox: Outbox) {
        (self.site, self.keys, self.outbox) = (site, keys, outbox)
    }

    public struct Report: Sendable {
        public let oldKeyID: String
        public let newKeyID: String
        public let inboxes: Int
        /// Set when the old private key file could not be deleted (it no longer signs; delete it by hand).
        public let leftBehind: String?
    }

    public func rotate(now: Date = Date()) throws -> Report {
        var keyring = try ActorKeyring.load(from: site.store.values)
        var token = "k" + String(Int(now.timeIntervalSince1970))
        while token == keyring.current || keyring.retired.contains(where: { $0.id == site.urls.actorKey(token) }) { token += "b" }
        let retiringPEM = try site.actorKey.publicKey.pemSPKI()  // read before anything is written
        let newKey = try PrivateKey.generate(.rsa(bits: 2048))
        try KeyFile.write(newKey, to: keys.url(named: KeyStore.actor + "-" + token))
        // The Ed25519 key of object integrity proofs turns with it, under a new fragment id.
        try KeyFile.write(try PrivateKey.generate(.ed25519), to: keys.url(named: ActorKeyring.assertionKeyName(token: token)))
        let oldFile = keys.url(named: keyring.keyName)
        let oldAssertionFile = keys.url(named: keyring.assertionKeyName)
        keyring.retired = keyring.retired.filter { now.timeIntervalSince($0.retiredAt) < ActorKeyring.retiredKeysAnswer }
            + [ActorKeyring.Retired(id: site.actorKeyID, publicKeyPem: retiringPEM, retiredAt: now)]
        keyring.published = keyring.published ?? site.published
        keyring.current = token
        keyring.currentPublicKeyPem = try newKey.publicKey.pemSPKI()
        try keyring.save(to: site.store.values)
        var leftBehind: String?
        for file in [oldFile, oldAssertionFile] {
            do { try FileManager.default.removeItem(at: file) } catch CocoaError.fileNoSuchFile {} catch {
                leftBehind = (leftBehind.map { $0 + "; " } ?? "") + "\(file.path): \(error)"
            }
        }

        let rotated = try BlogActor(config: site.config, store: site.store, keys: keys, render: site.render)
        let inboxes = try site.store.followers.followerInboxes()
        try outbox.send(Activities(urls: site.urls, config: site.config).updateActor(try rotated.actorDocument, now: now),
                        to: inboxes, now: now)
        return Report(oldKeyID: site.actorKeyID, newKeyID: rotated.actorKeyID, inboxes: Set(inboxes).count, leftBehind: leftBehind)
    }
}
