import Foundation

/// glibc's allocator tuned for a command that lives tens of milliseconds.
///
/// glibc maps blocks of 128 KiB and more on their own and unmaps them when freed, and hands the
/// top of the heap back above 128 KiB free; it raises both limits as a process goes on freeing
/// big blocks, which a one-post rebuild never lives to see. Each unmapping of a multi-threaded
/// process stops its other threads to flush their TLBs, and each page handed back is faulted in
/// and zeroed again. With the limits raised from the start, a one-post rebuild of 1,000 posts
/// took 51.2 → 47.9 and 49.8 → 44.3 ms (interleaved runs of two binaries); `lectern serve`,
/// which runs for weeks, keeps glibc's own limits.
enum ShortRun {
    static func tuneAllocator() {
        // Swift's Glibc module does not declare mallopt; its options are from <malloc.h>.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        let (trimThreshold, mmapThreshold): (Int32, Int32) = (-1, -3)
        _ = mallopt(mmapThreshold, 32 << 20)  // glibc's largest
        _ = mallopt(trimThreshold, 64 << 20)
    }
}
