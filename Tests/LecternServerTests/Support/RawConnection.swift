import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to a test server, for what no HTTP client does on purpose: trickling
/// a request byte by byte, sending two Host headers, or holding a connection open.
final class RawConnection: @unchecked Sendable {
    let descriptor: Int32

    /// `receiveBuffer`: a fixed receive buffer (the kernel doubles it for its bookkeeping), set
    /// before connecting so the kernel does not grow it as it does by default. `sendTimeout`: a
    /// `send` the peer does not read gives up after it (a short write) instead of blocking.
    /// `from`: the local address to connect from (any of 127.0.0.0/8 is this machine: a test's
    /// clients on several addresses).
    init(port: Int, host: String = "127.0.0.1", from source: String? = nil, receiveBuffer: Int32? = nil, sendTimeout: Int? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { close(descriptor); throw CancellationError() }
        }
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let seconds = sendTimeout {
            var limit = timeval(tv_sec: seconds, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(host)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(descriptor); throw CancellationError() }
    }

    deinit { close(descriptor) }

    /// Writes; false once the server has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Whatever arrives within `seconds`, or nil when the server closed the connection (EOF).
    func receive(within seconds: Double) -> String? {
        receiveBytes(within: seconds).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The same as bytes: a character may be split between two reads.
    func receiveBytes(within seconds: Double) -> [UInt8]? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(seconds * 1000)) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        return count <= 0 ? nil : Array(buffer[..<count])
    }
}

/// A server that accepts TCP connections (the kernel does, into the listen backlog) and never
/// answers a byte: the peer of every stall attack.
final class StallingServer {
    let descriptor: Int32
    let port: Int

    /// Listens on every loopback address (127.0.0.1, 127.0.0.2, …) at one port.
    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = INADDR_ANY
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound, listen(descriptor, 4096) == 0 else { close(descriptor); throw CancellationError() }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}
