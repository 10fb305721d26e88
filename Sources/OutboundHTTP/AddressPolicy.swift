/// Which addresses outgoing requests may connect to. Judged on the address actually being
/// connected to (after DNS, for every redirect hop), so DNS rebinding cannot slip past.
public enum AddressPolicy {
    /// Whether an IPv4 address (4 bytes) is publicly routable.
    public static func isPublic(ipv4 a: [UInt8]) -> Bool {
        guard a.count == 4 else { return false }
        switch (a[0], a[1]) {
        case (0, _), (10, _), (127, _): return false                   // this network, private, loopback
        case (100, 64...127): return false                              // carrier-grade NAT (RFC 6598)
        case (169, 254): return false                                   // link-local (cloud metadata lives here)
        case (172, 16...31), (192, 168): return false                   // private
        case (192, 0) where a[2] == 0 || a[2] == 2: return false        // IETF protocol assignments, TEST-NET-1
        case (198, 18...19): return false                               // benchmarking
        case (198, 51) where a[2] == 100, (203, 0) where a[2] == 113: return false  // TEST-NET-2, -3
        case (224...255, _): return false                               // multicast, reserved, broadcast
        default: return true
        }
    }

    /// Whether an IPv6 address (16 bytes) is publicly routable. IPv4-mapped and NAT64 forms are
    /// judged by their IPv4 address.
    public static func isPublic(ipv6 a: [UInt8]) -> Bool {
        guard a.count == 16 else { return false }
        if a[0..<15].allSatisfy({ $0 == 0 }) { return false }                               // :: and ::1
        if a[0..<10].allSatisfy({ $0 == 0 }) && a[10] == 0xff && a[11] == 0xff {             // ::ffff:a.b.c.d
            return isPublic(ipv4: Array(a[12..<16]))
        }
        if a[0] == 0x00 && a[1] == 0x64 && a[2] == 0xff && a[3] == 0x9b {                    // 64:ff9b::/96
            return isPublic(ipv4: Array(a[12..<16]))
        }
        if a[0] & 0xfe == 0xfc { return false }                                             // fc00::/7 unique local
        if a[0] == 0xfe && a[1] & 0xc0 == 0x80 { return false }                             // fe80::/10 link-local
        if a[0] == 0xff { return false }                                                    // multicast
        if a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x0d && a[3] == 0xb8 { return false }    // documentation
        return true
    }
}
