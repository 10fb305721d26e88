import Foundation
import Synchronization
import Testing
@testable import LecternCrypto

@Suite struct DigestTests {
    @Test func sha256AndSha512KnownAnswers() {
        // FIPS 180-2 appendix B.1 / C.1 ("abc").
        #expect(Digest.sha256(Array("abc".utf8)).map { String(format: "%02x", $0) }.joined()
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Digest.sha512(Array("abc".utf8)).prefix(8).map { String(format: "%02x", $0) }.joined() == "ddaf35a193617aba")
        #expect(Data(Digest.sha256([])).base64EncodedString() == "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
    }

    @Test func randomBytesDiffer() {
        let a = SecureRandom.bytes(32), b = SecureRandom.bytes(32)
        #expect(a.count == 32 && a != b)
    }
}

@Suite struct KeyTests {
    static let message = Array("The quick brown fox".utf8)

    @Test(arguments: [KeyType.rsa(bits: 2048), .ed25519])
    func generateSignVerify(type: KeyType) throws {
        let key = try PrivateKey.generate(type)
        #expect(key.type == type)
        let algorithm: SignatureAlgorithm = type == .ed25519 ? .ed25519 : .rsaV15SHA256
        let signature = try key.sign(Self.message, algorithm: algorithm)
        #expect(key.publicKey.verify(signature, for: Self.message, algorithm: algorithm))
        #expect(!key.publicKey.verify(signature, for: Self.message + [0], algorithm: algorithm))
        let other = try PrivateKey.generate(type)
        #expect(!other.publicKey.verify(signature, for: Self.message, algorithm: algorithm))
    }

    @Test func rsa4096AndPSS() throws {
        let key = try PrivateKey.generate(.rsa(bits: 4096))
        #expect(key.type == .rsa(bits: 4096))
        let signature = try key.sign(Self.message, algorithm: .rsaPSSSHA512)
        #expect(signature.count == 512)
        #expect(key.publicKey.verify(signature, for: Self.message, algorithm: .rsaPSSSHA512))
        #expect(!key.publicKey.verify(signature, for: Self.message, algorithm: .rsaV15SHA256))
    }

    @Test func pemRoundTripsEveryForm() throws {
        let key = try PrivateKey.generate(.rsa(bits: 2048))
        let pkcs8 = try key.pemPKCS8(), pkcs1 = try key.pemPKCS1()
        #expect(pkcs8.hasPrefix("-----BEGIN PRIVATE KEY-----") && pkcs1.hasPrefix("-----BEGIN RSA PRIVATE KEY-----"))
        let spki = try key.publicKey.pemSPKI(), rsaPublic = try key.publicKey.pemPKCS1()
        #expect(spki.hasPrefix("-----BEGIN PUBLIC KEY-----") && rsaPublic.hasPrefix("-----BEGIN RSA PUBLIC KEY-----"))
        let signature = try PrivateKey(pem: pkcs1).sign(Self.message, algorithm: .rsaV15SHA256)
        #expect(try signature == PrivateKey(pem: pkcs8).sign(Self.message, algorithm: .rsaV15SHA256))  // deterministic
        for pem in [spki, rsaPublic] {
            let publicKey = try PublicKey(pem: pem)
            #expect(publicKey.verify(signature, for: Self.message, algorithm: .rsaV15SHA256))
            #expect(try publicKey.pemSPKI() == spki)
        }
        let ed = try PrivateKey.generate(.ed25519)
        #expect(try PrivateKey(pem: ed.pemPKCS8()).publicKey.pemSPKI() == ed.publicKey.pemSPKI())
        #expect(throws: CryptoError.self) { try ed.pemPKCS1() }
    }

    @Test func badInputGivesOpenSSLReasons() {
        #expect(throws: CryptoError.self) { try PublicKey(pem: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n") }
        #expect(throws: CryptoError.self) { try PrivateKey(pem: "not a key") }
        do {
            _ = try PrivateKey(pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
        } catch let error as CryptoError {
            #expect(error.operation == "parse private key" && !error.reason.isEmpty)
        } catch { Issue.record("unexpected \(error)") }
        let ed = try! PrivateKey.generate(.ed25519)
        #expect(throws: CryptoError.self) { try ed.sign(Self.message, algorithm: .rsaV15SHA256) }
        #expect(!ed.publicKey.verify([1, 2, 3], for: Self.message, algorithm: .ed25519))
    }

    @Test func privateKeyDescriptionRevealsNothing() throws {
        let key = try PrivateKey.generate(.ed25519)
        #expect("\(key)" == "PrivateKey(Ed25519)")
        #expect(String(reflecting: key).contains("PRIVATE") == false)
    }
}

@Suite struct KeyFileTests {
    private func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("lectern-keys-\(UUID().uuidString)")
    }

    @Test func createsOnceWithOwnerOnlyPermissions() throws {
        let dir = folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("keys/actor.pem")
        let first = try KeyFile.loadOrCreate(at: url, type: .rsa(bits: 2048))
        let second = try KeyFile.loadOrCreate(at: url, type: .rsa(bits: 2048))
        #expect(try first.publicKey.pemSPKI() == second.publicKey.pemSPKI())
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folderAttributes = try FileManager.default.attributesOfItem(atPath: url.deletingLastPathComponent().path)
        #expect((folderAttributes[.posixPermissions] as? Int) == 0o700)
    }

    @Test func refusesAKeyOthersCanRead() throws {
        let dir = folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("actor.pem")
        _ = try KeyFile.loadOrCreate(at: url, type: .ed25519)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
        #expect(throws: CryptoError.self) { try KeyFile.load(at: url) }
    }
}

@Suite struct KeyStoreTests {
    @Test func keysAreCreatedOnFirstUseAndKeptApart() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = KeyStore(folder: dir)
        #expect(!FileManager.default.fileExists(atPath: store.url(named: KeyStore.actor).path))
        let actor = try store.key(named: KeyStore.actor)
        let instance = try store.key(named: KeyStore.instanceActor)
        #expect(actor.type == .rsa(bits: 2048))
        #expect(try actor.publicKey.pemSPKI() != instance.publicKey.pemSPKI())
        #expect(try KeyStore(folder: dir).key(named: KeyStore.actor).publicKey.pemSPKI() == actor.publicKey.pemSPKI())
    }
}

/// A key's verification contexts are reused between requests, one thread at a time each: many
/// threads checking good and bad signatures with one key at once must each get their own answer.
@Suite struct SharedKeyVerificationTests {
    @Test func concurrentChecksWithOneKeyKeepTheirAnswers() throws {
        let key = try PrivateKey.generate(.rsa(bits: 2048))
        let messages = (0..<16).map { Array("message \($0)".utf8) }
        let signatures = try messages.map { try key.sign($0, algorithm: .rsaV15SHA256) }
        let publicKey = try PublicKey(pem: key.publicKey.pemSPKI())
        let wrong = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            for index in messages.indices {
                let other = (index + 1) % messages.count
                let good = publicKey.verify(signatures[index], for: messages[index], algorithm: .rsaV15SHA256)
                let bad = publicKey.verify(signatures[other], for: messages[index], algorithm: .rsaV15SHA256)
                let truncated = publicKey.verify(Array(signatures[index].dropLast()), for: messages[index], algorithm: .rsaV15SHA256)
                if !good || bad || truncated { wrong.withLock { $0 += 1 } }
            }
        }
        #expect(wrong.withLock { $0 } == 0)
    }
}
