@testable import ActivityPub
import Foundation
import Testing

@Suite struct KeyFetchBudgetTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func eachHostHasItsShareAndAllHaveACeiling() {
        let budget = FetchBudget()
        let perHost = Int(FetchBudget.perHostPerMinute)
        for _ in 0..<perHost { #expect(budget.take(host: "a.example", now: start)) }
        #expect(!budget.take(host: "a.example", now: start), "over the host's share")
        #expect(budget.take(host: "b.example", now: start), "another host is not affected")
        #expect(budget.take(host: "a.example", now: start.addingTimeInterval(60)), "refilled after a minute")

        let fresh = FetchBudget()
        var granted = 0
        for n in 0..<5_000 where fresh.take(host: "h\(n).example", now: start) { granted += 1 }
        #expect(granted == Int(FetchBudget.overallPerMinute), "fresh hosts in one minute: \(granted)")
    }

    /// A host is charged only for fetches that go out: an exhausted overall budget does not
    /// drain a host's share as well.
    @Test func aRefusedFetchCostsTheHostNothing() {
        let budget = FetchBudget()
        for n in 0..<Int(FetchBudget.overallPerMinute) { #expect(budget.take(host: "h\(n).example", now: start)) }
        for _ in 0..<100 { #expect(!budget.take(host: "victim.example", now: start)) }
        // Six seconds on, the overall budget has 60 again; the victim's share was never touched.
        let later = start.addingTimeInterval(6)
        var granted = 0
        for _ in 0..<100 where budget.take(host: "victim.example", now: later) { granted += 1 }
        #expect(granted == Int(FetchBudget.perHostPerMinute))
    }

    @Test func aFailingHostIsLeftAlone() {
        let budget = FetchBudget()
        budget.hostFailed("down.example", now: start)
        #expect(!budget.take(host: "down.example", now: start.addingTimeInterval(29)))
        #expect(budget.take(host: "down.example", now: start.addingTimeInterval(31)))
    }
}
