import Foundation
import Testing
@testable import HTTPSignatures
import LecternCrypto

/// Our signatures checked by independent implementations (`httpsig`, `http-message-signatures`),
/// and theirs by us. `make test` installs the Python packages (target `test-tools`).
@Suite struct InteropTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Interop/interop.py")

    static func python(_ mode: String, input: Data? = nil) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, mode]
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CryptoError("interop.py \(mode)", reason: "exit \(process.terminationStatus) (run `make test-tools`): "
                              + String(decoding: errors, as: UTF8.self))
        }
        return output
    }

    static func json(_ request: HTTPRequestParts, key: PrivateKey, keyId: String) throws -> Data {
        try JSONSerialization.data(withJSONObject: [
            "method": request.method, "url": request.targetURI, "keyId": keyId,
            "headers": request.headers.map { [$0.name, $0.value] }, "body": String(decoding: request.body, as: UTF8.self),
            "publicKey": try key.publicKey.pemSPKI(),
        ])
    }

    static func request(from data: Data) throws -> (HTTPRequestParts, PublicKey, String) {
        let object = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let headers = (object["headers"] as! [[String]]).map { (name: $0[0], value: $0[1]) }
        let request = HTTPRequestParts(method: object["method"] as! String, url: object["url"] as! String,
                                       headers: headers, body: Array((object["body"] as! String).utf8))
        return (request, try PublicKey(pem: object["publicKey"] as! String), object["keyId"] as! String)
    }

    @Test(arguments: [VerifiedSignature.Scheme.cavage, .rfc9421])
    func theyVerifyOurs(scheme: VerifiedSignature.Scheme) throws {
        let key = try PrivateKey.generate(.rsa(bits: 2048))
        let keyId = RoundTripTests.keyId
        let signed = try RoundTripTests.signed(scheme, key, .delivery(), at: Date())
        let mode = scheme == .cavage ? "verify-cavage" : "verify-rfc9421"
        #expect(try String(decoding: Self.python(mode, input: Self.json(signed, key: key, keyId: keyId)), as: UTF8.self) == "valid\n")
        var forged = signed
        forged.setHeader("Content-Type", "text/plain")
        #expect(try String(decoding: Self.python(mode, input: Self.json(forged, key: key, keyId: keyId)), as: UTF8.self)
                    .hasPrefix("invalid: "))
    }

    @Test func ed25519RFC9421IsVerifiedByThem() throws {
        let key = try PrivateKey.generate(.ed25519)
        let signed = try RoundTripTests.signed(.rfc9421, key, .delivery(), at: Date())
        let output = try Self.python("verify-rfc9421", input: Self.json(signed, key: key, keyId: RoundTripTests.keyId))
        #expect(String(decoding: output, as: UTF8.self) == "valid\n")
    }

    @Test(arguments: [VerifiedSignature.Scheme.cavage, .rfc9421])
    func weVerifyTheirs(scheme: VerifiedSignature.Scheme) async throws {
        let (request, key, keyId) = try Self.request(from: Self.python(scheme == .cavage ? "sign-cavage" : "sign-rfc9421"))
        let verified = try await SignatureVerifier().verify(request, keys: StaticKeys([keyId: key]))
        #expect(verified.keyId == keyId && verified.scheme == scheme)
        var tampered = request
        tampered.body[5] ^= 1
        await #expect(throws: SignatureError.digestMismatch) {
            try await SignatureVerifier().verify(tampered, keys: StaticKeys([keyId: key]))
        }
    }
}
