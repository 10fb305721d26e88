import ActivityStreams
import BlogModel
import Foundation
import OutboundHTTP
import HTTPSignatures
import LecternCrypto

/// Why a remote document could not be had.
public enum RemoteFetchError: Error, Equatable, CustomStringConvertible {
    case http(HTTPClientError)
    case status(Int, String)
    case tooManyRedirects(String)
    case notJSON(String)
    /// The document's `id` is not the URL it came from, even after fetching that id.
    case idMismatch(url: String, id: String?)

    public var description: String {
        switch self {
        case .http(let error): return error.description
        case .status(let code, let url): return "\(url) answered \(code)"
        case .tooManyRedirects(let url): return "more than 3 redirects from \(url)"
        case .notJSON(let url): return "\(url) did not return a JSON object"
        case .idMismatch(let url, let id): return "\(url) served a document whose id is \(id ?? "missing")"
        }
    }

    /// A slow or saturated peer: the same fetch may work later (the inbox answers 503).
    public var isTemporary: Bool {
        if case .http(let error) = self { return FetchClient.isTemporary(error) }
        if case .status(let code, _) = self { return code == 429 || code >= 500 }
        return false
    }
}

/// A JSON document and the URL it was finally served from (after redirects): its bytes as
/// served (what proofs and relayed copies are checked over) and the one reading of them as
/// ActivityStreams (`APObject`).
public struct FetchedDocument: Sendable {
    public let url: String
    public let body: [UInt8]
    public let object: APObject
    public var id: String? { object.id }

    /// The same bytes as a WebFinger answer (not ActivityStreams).
    public func jrd() throws -> JRD {
        do { return try JSONDecoder().decode(JRD.self, from: Data(body)) } catch { throw RemoteFetchError.notJSON(url) }
    }

    /// The same bytes as plain JSON, read when asked: for a collection's items.
    public func json() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else { throw RemoteFetchError.notJSON(url) }
        return object
    }
}

/// Fetches ActivityPub documents from other servers: signed with the instance actor's key
/// (servers in authorized-fetch mode refuse unsigned GETs), at most 3 redirects, each hop
/// signed anew and its address checked again by the client's SSRF guard.
public struct RemoteFetcher: Sendable {
    public let client: FetchClient
    let instanceKeyID: String
    /// The instance actor's key, read from its file on the first fetch.
    let instanceKey: @Sendable () throws -> PrivateKey
    /// Which signature standard each host gets, and where its answers are remembered.
    var signatures: SignatureKnock
    let memory: SignatureMemory?
    static let maximumRedirects = 3
    public static let activityAccept = "application/activity+json, application/ld+json; profile=\"https://www.w3.org/ns/activitystreams\""

    public init(client: FetchClient, instanceKeyID: String, instanceKey: @escaping @Sendable () throws -> PrivateKey,
                signatures: SignatureKnock = SignatureKnock(), memory: SignatureMemory? = nil) {
        (self.client, self.instanceKeyID, self.instanceKey) = (client, instanceKeyID, instanceKey)
        (self.signatures, self.memory) = (signatures, memory)
    }

    /// An ActivityPub document that speaks for itself (design §5): its `id` is the URL it was
    /// finally fetched from. When it is not, the document at its `id` is fetched instead and
    /// must pass the same test, so a server cannot hand out a document claiming another's id.
    public func fetchAuthentic(_ url: String) async throws -> FetchedDocument {
        let first = try await fetch(url)
        if Self.isAuthentic(first) { return first }
        guard let id = first.id, Origin(id) != nil, Origin.normalized(id) != Origin.normalized(url) else {
            throw RemoteFetchError.idMismatch(url: first.url, id: first.id)
        }
        let second = try await fetch(id)
        guard Self.isAuthentic(second) else { throw RemoteFetchError.idMismatch(url: second.url, id: second.id) }
        return second
    }

    /// The JSON object at `url`, whatever its `id` says (WebFinger's JRD has none).
    public func fetch(_ url: String, accept: String = RemoteFetcher.activityAccept) async throws -> FetchedDocument {
        var current = url
        for _ in 0...Self.maximumRedirects {
            let response = try await signedGET(current, accept: accept)
            if [301, 302, 303, 307, 308].contains(response.status), let location = response.header("location"),
               let next = URL(string: location, relativeTo: URL(string: current))?.absoluteString {
                current = next
                continue
            }
            guard response.status == 200 else { throw RemoteFetchError.status(response.status, current) }
            guard let object = try? APObject(json: response.body) else { throw RemoteFetchError.notJSON(current) }
            return FetchedDocument(url: current, body: response.body, object: object)
        }
        throw RemoteFetchError.tooManyRedirects(url)
    }

    /// One GET signed by the instance actor, double-knocking as deliveries do (`SignatureKnock`):
    /// a 400 or 401 to the first standard is asked once more in the other.
    func signedGET(_ url: String, accept: String) async throws -> IncomingResponse {
        let unsigned = HTTPRequestParts(method: "GET", url: url, headers: [("Accept", accept)])
        let origin = SignatureKnock.origin(of: url)
        let remembered = origin.flatMap { memory?.recall($0) }
        var standard = signatures.first(remembered: remembered)
        var response = try await get(url, unsigned, standard: standard, asked: nil)
        if let (next, asked) = signatures.second(after: standard, status: response.status,
                                                 acceptSignature: response.header("accept-signature"), request: unsigned) {
            standard = next
            response = try await get(url, unsigned, standard: next, asked: asked)
        }
        if (200..<300).contains(response.status), let lesson = signatures.lesson(used: standard, remembered: remembered) {
            if let origin { memory?.learn(origin, lesson) }
        }
        return response
    }

    private func get(_ url: String, _ unsigned: HTTPRequestParts, standard: SignatureStandard,
                     asked: AcceptSignature?) async throws -> IncomingResponse {
        var parts = unsigned
        try SignatureKnock.sign(&parts, with: standard, asked: asked, keyId: instanceKeyID, key: try instanceKey())
        do {
            return try await client.perform(OutgoingRequest(url: url, headers: parts.headers))
        } catch let error as HTTPClientError {
            throw RemoteFetchError.http(error)
        }
    }

    static func isAuthentic(_ document: FetchedDocument) -> Bool {
        guard let id = document.id, let normalized = Origin.normalized(id) else { return false }
        return normalized == Origin.normalized(document.url)
    }
}
