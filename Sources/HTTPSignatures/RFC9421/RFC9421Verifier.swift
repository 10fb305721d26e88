import Foundation
import LecternCrypto

/// One labelled RFC 9421 signature that passed every check that needs no key.
struct RFC9421Candidate {
    let label: String
    let keyId: String
    let list: StructuredField.InnerList
    let signature: [UInt8]
    let acceptedUntil: Date?
}

/// The ActivityPub policy for RFC 9421 (as Mastodon applies it): `keyid` and `created`
/// required, `@method` and `@target-uri` covered, `content-digest` covered and matching on
/// POST, the same time window as draft-cavage.
struct RFC9421Verifier {
    let now: Date
    let audience: SignatureAudience?
    /// Every label may name a key of its own, and each would be fetched (twice, on failure) and
    /// checked: more labels than any real sender adds are refused before any of that.
    static let maximumLabels = 8

    /// The first label, in header order, that passes the policy; else the first label's error.
    func firstCandidate(_ request: HTTPRequestParts, input inputValue: String) throws -> RFC9421Candidate {
        guard let signatureValue = request.field("signature") else { throw SignatureError.missingHeader("signature") }
        let inputs: StructuredField.Dictionary
        let signatures: StructuredField.Dictionary
        do {
            // Read no further than the labels taken: a header of made-up ones costs nothing more.
            inputs = try StructuredFieldParser.dictionary(inputValue, maximumMembers: Self.maximumLabels)
            signatures = try StructuredFieldParser.dictionary(signatureValue, maximumMembers: Self.maximumLabels)
        } catch {
            throw SignatureError.malformed("\(error)")
        }
        guard !inputs.isEmpty else { throw SignatureError.missingSignature }
        var firstError: (any Error)?
        var bodyDigest: Result<Void, any Error>?  // the body is hashed once, however many labels cover it
        for (label, member) in inputs {
            do {
                return try check(label: label, member: member, signatures: signatures, request: request, bodyDigest: &bodyDigest)
            } catch {
                firstError = firstError ?? error
            }
        }
        throw firstError ?? SignatureError.missingSignature
    }

    private func check(label: String, member: StructuredField.Member, signatures: StructuredField.Dictionary,
                       request: HTTPRequestParts, bodyDigest: inout Result<Void, any Error>?) throws -> RFC9421Candidate {
        guard case .innerList(let list) = member else { throw SignatureError.malformed("\(label) is not an inner list") }
        guard let entry = signatures.first(where: { $0.key == label })?.value, case .item(let item) = entry,
              let signature = item.item.bytes else { throw SignatureError.missingParameter("signature for \(label)") }
        guard let keyId = list.parameter("keyid")?.string, !keyId.isEmpty else { throw SignatureError.missingParameter("keyid") }
        guard let created = list.parameter("created")?.integer else { throw SignatureError.missingParameter("created") }
        // A handful of components: looked through once, in place, not collected into a set.
        var coversMethod = false, coversTarget = false, coversDigest = false
        for component in list.items where component.parameters.isEmpty {
            switch component.item.string {
            case "@method": coversMethod = true
            case "@target-uri": coversTarget = true
            case "content-digest": coversDigest = true
            default: break
            }
        }
        guard coversMethod else { throw SignatureError.notCovered("@method") }
        // `@target-uri` (and `@authority`, when covered) are built from the Host received: a
        // signature made for another server names that server there.
        if let audience, !audience.contains(request.authority) { throw SignatureError.wrongAudience(request.authority) }
        guard coversTarget else { throw SignatureError.notCovered("@target-uri") }
        if request.method == "POST" {
            guard coversDigest else { throw SignatureError.notCovered("content-digest") }
        }
        if coversDigest {
            if bodyDigest == nil {
                bodyDigest = Result {
                    guard let digest = request.field("content-digest") else { throw SignatureError.digestMissing }
                    try BodyDigest.verifyContentDigest(digest, body: request.body)
                }
            }
            try bodyDigest?.get()
        }
        let expires = list.parameter("expires")?.integer.map { Date(timeIntervalSince1970: TimeInterval($0)) }
        let acceptedUntil = try TimeWindow.check(created: Date(timeIntervalSince1970: TimeInterval(created)), expires: expires, now: now)
        return RFC9421Candidate(label: label, keyId: keyId, list: list, signature: signature, acceptedUntil: acceptedUntil)
    }
}
