import BlogModel
import Foundation
import HTTPSignatures
import Logging
import Storage

extension BlogActor {
    /// The double-knock `delivery.signatures` asks for.
    static func signatureKnock(_ config: SiteConfig) -> SignatureKnock {
        SignatureKnock(preference: SignaturePreference(rawValue: config.delivery.signatures.rawValue) ?? .auto)
    }

    /// Signed GETs learn per origin in the same table as deliveries: what one learns, the other uses.
    static func signatureMemory(_ deliveries: DeliveryQueue, _ config: SiteConfig) -> SignatureMemory {
        let memory = signatureKnock(config).memory
        let logger = Logger(label: "lectern.fetch")
        return SignatureMemory(
            recall: { origin in
                do { return try deliveries.acceptsRFC9421(origin: origin, memory: memory) } catch {
                    logger.warning("could not read whether \(origin) takes RFC 9421 signatures (RFC 9421 first): \(error)")
                    return nil
                }
            },
            learn: { origin, rfc9421 in
                do { try deliveries.setAcceptsRFC9421(origin: origin, rfc9421) } catch {
                    logger.warning("could not remember whether \(origin) takes RFC 9421 signatures: \(error)")
                }
            })
    }
}
