import CHeap

/// glibc's heap, kept near what the server holds. Under `make soak`'s inbox traffic (each reply a
/// rebuild of a few pages, ~240,000 allocations a second) a serving process's resident memory grew
/// by half a megabyte a second while its live heap stayed under 90 MB (heaptrack): freed memory
/// stayed resident, scattered over glibc's eight arenas per core. Linking `CHeap` limits them to
/// one per core before `main`; the server also gives free pages back every 10 s.
public enum ProcessHeap {
    /// Gives the kernel back the free pages of every arena (not only the top of the main one, as
    /// `free` does by itself). With two arenas on this 2-core machine, a 3-minute inbox-only soak
    /// ended at 173 MB without it (`MALLOC_ARENA_MAX=2`) and at 145 MB with it.
    public static func returnFreePages() {
        _ = lectern_heap_trim()
    }

    /// Bytes malloc has handed out and not had back: what the process holds, without the free
    /// pages and fragments resident memory also counts (0 without glibc). It walks every free
    /// chunk with each arena locked, stalling other threads' allocations meanwhile: 7–8 ms of
    /// a 12.6 ms scrape on a 150 MB heap (`perf record` of `lectern serve` after a one-hour
    /// `make soak`), so it is asked for on purpose, never on a schedule.
    public static var inUseBytes: Int { Int(lectern_heap_in_use()) }
}
