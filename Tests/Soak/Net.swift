import Foundation
import OutboundHTTP
import HTTPSignatures

/// The load's HTTP client: Lectern's own libcurl loop (never blocking the cooperative pool), with
/// room for a stampede's thousand requests at once.
enum Net {
    static let loop = TransferLoop(maximumInFlight: 4096, maximumPerHost: 4096)
    static let client: FetchClient = {
        var client = FetchClient(allowPrivateAddresses: true)
        client.totalTimeout = .seconds(30)
        client.maximumBodySize = 8 << 20
        client.userAgent = "lectern-soak"
        return client
    }()

    static func perform(_ request: OutgoingRequest) async throws -> IncomingResponse {
        try await client.perform(request, on: loop)
    }

    static func get(_ url: String, accept: String = "text/html", headers: [(name: String, value: String)] = []) async throws -> IncomingResponse {
        try await perform(OutgoingRequest(url: url, headers: [("Accept", accept)] + headers))
    }

    /// `parts` signed (draft-cavage or RFC 9421, as a mix of real servers would), as a request.
    static func signed(_ parts: HTTPRequestParts, by actor: FakeActor, rfc9421: Bool) throws -> OutgoingRequest {
        var parts = parts
        if rfc9421 {
            try RFC9421Signer(keyId: actor.keyID, key: actor.key).sign(&parts)
        } else {
            try CavageSigner(keyId: actor.keyID, key: actor.key).sign(&parts)
        }
        return OutgoingRequest(method: parts.method, url: parts.targetURI, headers: parts.headers, body: parts.body)
    }
}
