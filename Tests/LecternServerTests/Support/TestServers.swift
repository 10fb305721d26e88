import Foundation
import OutboundHTTP
import Hummingbird
import Logging
import ServiceLifecycle
#if canImport(Glibc)
import Glibc
#endif

/// The tests' own network thread, apart from the one the blog under test uses (`TransferLoop.shared`),
/// with limits high enough that test traffic is never refused as "busy".
let testTransfers = TransferLoop(maximumInFlight: 4096, maximumPerHost: 4096)

/// An application running in the background.
struct RunningApplication: Sendable {
    let group: ServiceGroup
    let task: Task<Void, any Error>

    /// Shuts it down gracefully: cancelling its task instead drops the connections it accepted but
    /// has not started serving, and NIO traps on those ("Deinited NIOAsyncWriter without calling
    /// finish()", apple/swift-nio#2637), which crashed a run of the suite now and then. A server
    /// still busy after 5 s (a request that never ends) is cancelled.
    func stop() {
        let (group, task) = (group, task)
        Task {
            await group.triggerGracefulShutdown()
            try? await Task.sleep(for: .seconds(5))
            task.cancel()
        }
    }
}

/// Starts an application in the background and returns the port it listens on.
func startApplication(_ make: (@escaping @Sendable (Int) async -> Void) -> some ApplicationProtocol)
async throws -> (port: Int, application: RunningApplication) {
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let app = make { port in continuation.yield(port) }
    let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: quietLogger("test-server")))
    let task = Task { try await group.run() }
    for await port in ports { return (port, RunningApplication(group: group, task: task)) }
    throw CancellationError()
}

/// A loopback port free right now (the site's baseURL must name its port before it listens).
func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard bound else { throw CancellationError() }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Test servers log nothing below critical (their cancelled shutdown reports as an error).
func quietLogger(_ label: String) -> Logger {
    var logger = Logger(label: label)
    logger.logLevel = .critical
    return logger
}

/// Polls `condition` until it holds or `seconds` pass.
func eventually(within seconds: Double = 5, _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
}

/// Something learned only once a server listens.
final class Box<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
    func update<Result>(_ change: (inout Value) -> Result) -> Result { lock.withLock { change(&stored) } }
}
