import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Puts a freshly built folder in place of the live one in a single step.
enum AtomicSwap {
    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// Linux's renameat2(RENAME_EXCHANGE) swaps two directories atomically, so a reader of
    /// `live` always sees a whole site. glibc declares it only under _GNU_SOURCE, which Swift's
    /// Glibc module does not set, so it is looked up at run time.
    private static let renameExchange: RenameAt2? = {
        #if os(Linux)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: RenameAt2.self)
        #else
        return nil
        #endif
    }()

    /// Moves `staging` to `live`; what was live before ends up at `staging` (to be deleted).
    /// Returns whether an old tree was moved to `staging`.
    @discardableResult
    static func replace(live: URL, with staging: URL) throws -> Bool {
        let fileManager = FileManager.default
        guard fileManager.fileExists(atPath: live.path) else {
            try fileManager.moveItem(at: staging, to: live)
            return false
        }
        let atFDCWD: Int32 = -100
        let renameExchangeFlag: UInt32 = 1 << 1
        if let exchange = renameExchange,
           exchange(atFDCWD, staging.path, atFDCWD, live.path, renameExchangeFlag) == 0 {
            return true
        }
        // Fallback (other systems, old kernels): two renames, with a moment between them.
        let parked = staging.deletingLastPathComponent()
            .appendingPathComponent(".\(live.lastPathComponent).old-\(getpid())")
        try fileManager.moveItem(at: live, to: parked)
        do {
            try fileManager.moveItem(at: staging, to: live)
        } catch {
            try? fileManager.moveItem(at: parked, to: live)
            throw error
        }
        try fileManager.moveItem(at: parked, to: staging)
        return true
    }
}
