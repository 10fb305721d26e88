import Foundation
import Logging
import Synchronization

/// Finds a reader's activity intents (FEP-3b86) for the reply form: one WebFinger lookup of the
/// account they typed, through the SSRF-guarded, signed fetcher. A stranger's request makes the
/// blog fetch, so it is bounded: answers (also "none") are kept an hour for at most 1,000
/// accounts, and at most 30 lookups a minute are made in all; past that the form falls back to
/// `authorize_interaction` without asking anyone.
package final class IntentLookup: Sendable {
    struct State {
        var answers: [String: (intents: ActivityIntents?, at: Date)] = [:]
        var window = Date.distantPast
        var lookups = 0
    }

    static let logger = Logger(label: "lectern.interact")
    static let perMinute = 30
    static let remembered = 1_000
    static let keptFor: TimeInterval = 3600
    private let state = Mutex(State())
    private let fetcher: RemoteFetcher

    package init(fetcher: RemoteFetcher) { self.fetcher = fetcher }

    /// The intents of `user@authority` (fetched over `scheme`); nil when there are none, the
    /// lookup fails, or the budget is spent.
    package func intents(user: String, authority: String, scheme: String, now: Date = Date()) async -> ActivityIntents? {
        let account = "\(user)@\(authority)".lowercased()
        enum Plan { case known(ActivityIntents?), ask, over }
        let plan: Plan = state.withLock { state in
            if let answer = state.answers[account], now.timeIntervalSince(answer.at) < Self.keptFor { return .known(answer.intents) }
            if now.timeIntervalSince(state.window) >= 60 { (state.window, state.lookups) = (now, 0) }
            guard state.lookups < Self.perMinute else { return .over }
            state.lookups += 1
            return .ask
        }
        switch plan {
        case .known(let intents): return intents
        case .over: return nil
        case .ask: break
        }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let resource = ("acct:" + account).addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        var intents: ActivityIntents?
        do {
            intents = ActivityIntents(jrd: try await fetcher.fetch("\(scheme)://\(authority)/.well-known/webfinger?resource=\(resource)",
                                                                   accept: "application/jrd+json, application/json").jrd())
        } catch {
            // The reader goes to authorize_interaction instead; the answer is kept like any other.
            Self.logger.notice("reply form: no WebFinger answer for \(account): \(error)")
        }
        state.withLock { state in
            if state.answers.count >= Self.remembered {
                state.answers = state.answers.filter { now.timeIntervalSince($0.value.at) < Self.keptFor }
                if state.answers.count >= Self.remembered { state.answers.removeAll() }
            }
            state.answers[account] = (intents, now)
        }
        return intents
    }
}
