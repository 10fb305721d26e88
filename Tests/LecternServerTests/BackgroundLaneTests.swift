import Foundation
import LecternRuntime
import Testing

/// Searches' thread (`BackgroundLane`): one job at a time, in order, below the event loops' priority.
@Suite struct BackgroundLaneTests {
    @Test func jobsRunOneAtATimeInOrderAtALowerPriority() async throws {
        let lane = BackgroundLane(name: "lane-test", niceness: 10)
        let log = Box<(running: Int, mostAtOnce: Int, order: [Int])>((0, 0, []))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for job in 0..<16 {
                group.addTask {
                    try await lane.run {
                        log.update { $0.running += 1; $0.mostAtOnce = max($0.mostAtOnce, $0.running) }
                        Thread.sleep(forTimeInterval: 0.002)
                        log.update { $0.order.append(job); $0.running -= 1 }
                    }
                }
                try await Task.sleep(for: .milliseconds(1))
            }
            try await group.waitForAll()
        }
        #expect(log.value.mostAtOnce == 1)
        #expect(log.value.order == Array(0..<16), "in the order they came")
        // Linux keeps a nice value per thread: field 19 of the thread's stat line.
        let nice = try await lane.run { () -> Int? in
            guard let stat = try? String(contentsOfFile: "/proc/thread-self/stat", encoding: .utf8),
                  let end = stat.lastIndex(of: ")") else { return nil }
            return Int(stat[stat.index(after: end)...].split(separator: " ")[16])
        }
        #expect(nice == 10)
        struct Failure: Error {}
        await #expect(throws: Failure.self) { try await lane.run { throw Failure() } }
    }
}
