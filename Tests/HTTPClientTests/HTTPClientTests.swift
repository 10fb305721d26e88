import Foundation
import Testing
@testable import OutboundHTTP

@Suite struct AddressPolicyTests {
    @Test(arguments: [
        ("127.0.0.1", false), ("10.1.2.3", false), ("172.16.0.1", false), ("172.31.255.255", false), ("192.168.1.1", false),
        ("169.254.169.254", false), ("0.0.0.0", false), ("100.64.0.1", false), ("224.0.0.1", false), ("255.255.255.255", false),
        ("192.0.2.1", false), ("198.51.100.7", false), ("203.0.113.9", false), ("198.18.0.1", false),
        ("172.32.0.1", true), ("8.8.8.8", true), ("93.184.216.34", true), ("100.128.0.1", true), ("11.0.0.1", true),
    ])
    func ipv4(address: String, isPublic: Bool) {
        let bytes = address.split(separator: ".").map { UInt8($0)! }
        #expect(AddressPolicy.isPublic(ipv4: bytes) == isPublic, "\(address)")
    }

    private func v6(_ text: String) -> [UInt8] {
        var address = in6_addr()
        precondition(inet_pton(AF_INET6, text, &address) == 1)
        return withUnsafeBytes(of: address) { Array($0) }
    }

    @Test(arguments: [
        ("::1", false), ("::", false), ("fe80::1", false), ("fc00::1", false), ("fd12:3456::1", false), ("ff02::1", false),
        ("::ffff:127.0.0.1", false), ("::ffff:10.0.0.1", false), ("64:ff9b::a00:1", false), ("2001:db8::1", false),
        ("2606:4700:4700::1111", true), ("::ffff:8.8.8.8", true), ("2a00:1450:4001::200e", true),
    ])
    func ipv6(address: String, isPublic: Bool) {
        #expect(AddressPolicy.isPublic(ipv6: v6(address)) == isPublic, "\(address)")
    }
}

@Suite struct HTTPClientGuardTests {
    /// A port on loopback where nothing listens.
    private func closedPort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                _ = bind(descriptor, $0, length)
                _ = getsockname(descriptor, $0, &length)
            }
        }
        close(descriptor)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test func refusesLoopbackAndPlainHTTPByDefault() async throws {
        let client = FetchClient()
        let port = closedPort()
        await #expect(throws: HTTPClientError.blockedAddress("127.0.0.1")) {
            try await client.perform(OutgoingRequest(url: "https://127.0.0.1:\(port)/actor"))
        }
        await #expect(throws: HTTPClientError.insecureScheme("http://example.org/")) {
            try await client.perform(OutgoingRequest(url: "http://example.org/"))
        }
        await #expect(throws: HTTPClientError.badURL("not a url")) {
            try await client.perform(OutgoingRequest(url: "not a url"))
        }
        // `localhost` is judged by the address it resolves to, not by its name.
        do {
            _ = try await client.perform(OutgoingRequest(url: "https://localhost:\(port)/"))
            Issue.record("localhost must be refused")
        } catch let error as HTTPClientError {
            guard case .blockedAddress = error else { Issue.record("unexpected \(error)"); return }
        }
    }

    @Test func developmentFlagLetsLoopbackThrough() async throws {
        let port = closedPort()
        do {
            _ = try await FetchClient(allowPrivateAddresses: true).perform(OutgoingRequest(url: "http://127.0.0.1:\(port)/"))
            Issue.record("nothing listens there")
        } catch let error as HTTPClientError {
            guard case .transport = error else { Issue.record("expected a connection error, got \(error)"); return }
        }
    }
}
