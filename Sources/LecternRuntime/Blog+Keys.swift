import ActivityPub
import Foundation
import Interactions

extension Blog {
    /// `lectern keys rotate`: a new actor key from now on (a running server hears of it as a
    /// `.keys` change and signs with it within a second), `Update(Person)` queued to every follower.
    public func rotateActorKey(now: Date = Date()) throws -> KeyRotation.Report {
        let report = try KeyRotation(site: activityPub, keys: keys, outbox: outbox).rotate(now: now)
        try reloadSettings()
        try changed([.keys, .deliveries])
        return report
    }
}
