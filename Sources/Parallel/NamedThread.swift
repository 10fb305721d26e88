import CThreadName
import Foundation

/// Starts a thread that carries its name in `top -H`, `perf` and crash reports.
///
/// Foundation on Linux drops a `Thread.name` set before `start()` (the thread does not exist
/// yet), so a new thread inherits its creator's name; this one names itself before its work.
public enum NamedThread {
    /// `name` fits Linux's 15 bytes, or the kernel would keep a cut-off name.
    public static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        precondition(name.utf8.count <= 15, "thread name \(name) is longer than Linux keeps")
        Thread {
            _ = lectern_name_current_thread(name)
            body()
        }.start()
    }
}
