import Foundation
import HTTPClient
import HTTPSignatures
import LecternCrypto

/// Why a remote document could not be had.
public enum RemoteFetchError: Error, Equatable, CustomStringConvertible {
    case http(HTTPClientError)
    case status(Int, String)
    case tooManyRedirects(String)
    case notJSON(String)

    public var description: String {
        switch self {
        case .http(let error): return error.description
        case .status(let code, let url): return "\(url) answered \(code)"
        case .tooManyRedirects(let url): return "more than 3 redirects from \(url)"
        case .notJSON(let url): return "\(url) did not return a JSON object"
        }
    }
}

/// Fetches ActivityPub documents from other servers: signed with the instance actor's key
/// (servers in authorized-fetch mode refuse unsigned GETs), at most 3 redirects, each hop
/// signed anew and its address checked again by the client's SSRF guard.
public struct RemoteFetcher: Sendable {
    public let client: HTTPClient
    public let signer: CavageSigner
    static let maximumRedirects = 3
    public static let activityAccept = "application/activity+json, application/ld+json; profile=\"https://www.w3.org/ns/activitystreams\""

    public init(client: HTTPClient, instanceKeyID: String, instanceKey: PrivateKey) {
        self.client = client
        self.signer = CavageSigner(keyId: instanceKeyID, key: instanceKey)
    }

    /// The JSON object at `url`.
    public func fetchObject(_ url: String, accept: String = RemoteFetcher.activityAccept) async throws -> [String: Any] {
        var current = url
        for _ in 0...Self.maximumRedirects {
            var parts = HTTPRequestParts(method: "GET", url: current, headers: [("Accept", accept)])
            try signer.sign(&parts)
            let response: IncomingResponse
            do {
                response = try await client.perform(OutgoingRequest(url: current, headers: parts.headers))
            } catch let error as HTTPClientError {
                throw RemoteFetchError.http(error)
            }
            if [301, 302, 303, 307, 308].contains(response.status), let location = response.header("location"),
               let next = URL(string: location, relativeTo: URL(string: current))?.absoluteString {
                current = next
                continue
            }
            guard response.status == 200 else { throw RemoteFetchError.status(response.status, current) }
            guard let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] else {
                throw RemoteFetchError.notJSON(current)
            }
            return object
        }
        throw RemoteFetchError.tooManyRedirects(url)
    }
}
