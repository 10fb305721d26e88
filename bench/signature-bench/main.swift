// Signs and verifies a 2 KiB ActivityPub delivery through Lectern's public API, single-threaded,
// and prints operations per second. Run by bench/signatures next to `openssl speed rsa2048`.
import Foundation
import HTTPSignatures
import LecternCrypto

struct OneKey: SignatureKeyProvider {
    let key: PublicKey
    func publicKey(for keyId: String, refresh: Bool) async throws -> PublicKey { key }
}

/// Optional second argument: run only the measurements whose label contains it.
let only = CommandLine.arguments.dropFirst(2).first

/// `operations`: how many operations one call of `body` does (the rate printed is per operation).
func measure(_ label: String, seconds: Double, operations: Int = 1, _ body: () async throws -> Void) async rethrows -> Double {
    if let only, !label.contains(only) { return 0 }
    for _ in 0..<20 { try await body() }  // warm up
    let start = DispatchTime.now().uptimeNanoseconds
    var count = 0
    while Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 < seconds {
        for _ in 0..<10 { try await body() }
        count += 10
    }
    let rate = Double(count * operations) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    print("\(label)\t\(Int(rate))")
    return rate
}

/// Everything runs in this nonisolated function: closures made in top-level code would belong
/// to the main actor and pay two thread hops per call, which the server never does.
enum Bench {
    static func run() async throws {
        let seconds = Double(CommandLine.arguments.dropFirst().first ?? "3") ?? 3
        let key = try PrivateKey.generate(.rsa(bits: 2048))
        let keyId = "https://blog.example/actor#main-key"
        let body = Array(String(repeating: "{\"content\":\"lorem ipsum dolor sit amet\"}", count: 50).utf8.prefix(2048))
        let template = HTTPRequestParts(method: "POST", url: "https://mastodon.example/inbox",
                                        headers: [("Content-Type", "application/activity+json"), ("User-Agent", "Lectern")],
                                        body: body)
        let cavage = CavageSigner(keyId: keyId, key: key)
        let modern = RFC9421Signer(keyId: keyId, key: key)
        var signedCavage = template
        try cavage.sign(&signedCavage)
        var signedModern = template
        try modern.sign(&signedModern)
        let keys = OneKey(key: key.publicKey)
        let verifier = SignatureVerifier()

        _ = try await measure("sign draft-cavage", seconds: seconds) {
            var request = template
            try cavage.sign(&request)
        }
        _ = try await measure("sign rfc9421", seconds: seconds) {
            var request = template
            try modern.sign(&request)
        }
        // The same signing on every core at once (as a fan-out signs a lease): how it scales.
        let cores = ProcessInfo.processInfo.activeProcessorCount
        _ = await measure("sign draft-cavage on \(cores) threads", seconds: seconds, operations: cores) {
            DispatchQueue.concurrentPerform(iterations: cores) { _ in
                var request = template
                do { try cavage.sign(&request) } catch { fatalError("signing failed: \(error)") }
            }
        }
        let message = Array(String(repeating: "x", count: 300).utf8)
        let rawSignature = try key.sign(message, algorithm: .rsaV15SHA256)
        let publicKey = key.publicKey
        _ = await measure("verify key only (no HTTP)", seconds: seconds) {
            precondition(publicKey.verify(rawSignature, for: message, algorithm: .rsaV15SHA256))
        }
        _ = try await measure("verify draft-cavage", seconds: seconds) {
            _ = try await verifier.verify(signedCavage, keys: keys)
        }
        _ = try await measure("verify rfc9421", seconds: seconds) {
            _ = try await verifier.verify(signedModern, keys: keys)
        }
    }
}

try await Bench.run()
