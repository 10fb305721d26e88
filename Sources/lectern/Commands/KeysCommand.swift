import ArgumentParser
import Foundation
import LecternCrypto
import Site

struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "The blog's signing keys (kept in data/keys, mode 0600).",
        subcommands: [Show.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a public key and its key id, creating the key pair on first use. Private keys are never printed.")

        @OptionGroup var siteOptions: SiteOptions

        @Flag(help: "The instance actor's key (signs outgoing GETs) instead of the blog actor's.")
        var instance = false

        func run() async throws {
            let root = siteOptions.root
            try await reportingErrors {
                let config = try SiteConfig.load(from: root)
                let name = instance ? KeyStore.instanceActor : KeyStore.actor
                let store = KeyStore(folder: root.appendingPathComponent("data/keys"))
                let key: PrivateKey
                do { key = try store.key(named: name) } catch let error as CryptoError { throw CLIError(error.description) }
                let actor = config.absoluteURL(instance ? "/instance-actor" : "/actor")
                print("\(name) key (\(key.type)) in \(store.url(named: name).path)")
                print("keyId: \(actor)#main-key")
                print(try key.publicKey.pemSPKI(), terminator: "")
            }
        }
    }
}
