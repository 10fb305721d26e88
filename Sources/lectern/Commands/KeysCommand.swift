import ArgumentParser
import DataIntegrity
import Foundation
import LecternCrypto
import Site

struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "The blog's signing keys (kept in data/keys, mode 0600).",
        discussion: "Example: lectern keys -s /var/lib/lectern; lectern keys rotate -s /var/lib/lectern",
        subcommands: [Show.self, Rotate.self], defaultSubcommand: Show.self)

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate",
            abstract: "Replace the blog actor's key pair: a new key id from now on, the old one answering for 7 days.",
            discussion: """
            The actor's publicKey and every signature switch at once (also in a running server), the old private \
            key is deleted, and Update(Person) with the new key is queued to every follower's inbox. The old key \
            id keeps answering as a key document for 7 days (the very first key, <actor>#main-key, is a fragment \
            of the actor and answers with the actor, which names the new key).

            Example: lectern keys rotate -s /var/lib/lectern
            """)

        @OptionGroup var siteOptions: SiteOptions

        func run() async throws {
            try await reportingErrors {
                let blog = try siteOptions.openBlog()
                let report = try blog.rotateActorKey()
                print("rotated: signing with \(report.newKeyID) (was \(report.oldKeyID)); Update queued for \(report.inboxes) inboxes")
                if let left = report.leftBehind {
                    FileHandle.standardError.write(Data("warning: the old private key could not be deleted, delete it by hand: \(left)\n".utf8))
                }
                try await DeliverCommand.deliverOrHandOver(blog)
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print a public key and its key id, creating the key pair on first use. Private keys are never printed.",
            discussion: "Example: lectern keys show -s /var/lib/lectern --instance")

        @OptionGroup var siteOptions: SiteOptions

        @Flag(help: "The instance actor's key (signs outgoing GETs) instead of the blog actor's.")
        var instance = false

        func run() async throws {
            let root = siteOptions.root
            try await reportingErrors {
                let site = try siteOptions.openBlog().activityPub
                let key = try instance ? site.instanceKey : site.actorKey
                let keyID = instance ? site.urls.instanceKeyID : site.actorKeyID
                let name = instance ? KeyStore.instanceActor : site.keyring.keyName
                print("\(name) key (\(key.type)) in \(KeyStore(folder: root.appendingPathComponent("data/keys")).url(named: name).path)")
                print("keyId: \(keyID)")
                print(try key.publicKey.pemSPKI(), terminator: "")
                if !instance {
                    // Its Ed25519 key, the actor's assertionMethod (FEP-521a): object integrity proofs.
                    let assertion = try site.assertionKey
                    print("\(site.keyring.assertionKeyName) key (\(assertion.type)) in "
                          + KeyStore(folder: root.appendingPathComponent("data/keys")).url(named: site.keyring.assertionKeyName).path)
                    print("assertionMethod: \(site.assertionKeyID)")
                    print("publicKeyMultibase: \(Multikey.ed25519(publicKey: try assertion.publicKey.rawEd25519()))")
                }
            }
        }
    }
}
