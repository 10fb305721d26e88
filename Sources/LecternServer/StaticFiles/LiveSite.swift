import Foundation
import Synchronization

/// The static index being served, replaced whole after each rebuild.
public final class LiveSite: Sendable {
    public let publicFolder: URL
    private let current: Mutex<StaticIndex>

    public init(publicFolder: URL) throws {
        self.publicFolder = publicFolder
        self.current = Mutex(try StaticIndex.load(from: publicFolder))
    }

    var index: StaticIndex { current.withLock { $0 } }

    /// Number of files being served.
    public var fileCount: Int { index.count }

    /// Re-reads `public/` (after a build swapped a new tree in).
    public func reload() throws {
        let fresh = try StaticIndex.load(from: publicFolder, reusing: index)
        current.withLock { $0 = fresh }
    }
}
