import Foundation
import Testing
@testable import Storage

@Suite struct FairDeliveryTests {
    /// 5,000 followers on one host without a shared inbox must not hold up everyone else: hosts
    /// take turns in every lease.
    @Test func oneHostsManyInboxesDoNotFillALease() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-store-\(UUID().uuidString)/lectern.sqlite").path
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        let store = try Store(path: path)
        let crowd = (0..<2_000).map { "https://crowd.example/users/u\($0)/inbox" }
        let others = (0..<6).map { "https://host\($0).example/inbox" }
        try store.deliveries.enqueueActivity(id: "https://blog.example/a/1", type: "Create", objectID: nil, json: "{}", inboxes: crowd + others)
        let lease = try store.deliveries.leaseDeliveries(limit: 8)
        #expect(lease.count == 8)
        #expect(Set(lease.map(\.host)).isSuperset(of: Set(others.map { URLComponents(string: $0)!.host! })),
                "\(lease.map(\.host))")
    }
}
