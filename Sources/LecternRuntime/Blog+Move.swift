import ActivityPub
import Foundation
import Interactions

extension Blog {
    /// Moves the blog's followers to `target` (`lectern move`): the actor says `movedTo` from now
    /// on (a running server hears of it as a `.keys` change) and every follower is sent `Move`.
    public func move(to target: String) async throws -> BlogMove.Report {
        let activityPub = activityPub
        let report = try await BlogMove(site: activityPub, outbox: outbox,
                                        resolver: BlogOwnerResolver(fetcher: activityPub.remoteKeys.fetcher, actors: store.actors, blocks: store.blocks, values: store.values)).move(to: target)
        try reloadSettings()
        try changed([.keys])
        return report
    }

    /// Stops stating `movedTo` (a move made by mistake, or undone on the new side).
    public func cancelMove() throws {
        try BlogMove(site: activityPub, outbox: outbox,
                     resolver: BlogOwnerResolver(fetcher: activityPub.remoteKeys.fetcher, actors: store.actors, blocks: store.blocks, values: store.values)).cancel()
        try reloadSettings()
        try changed([.keys])
    }
}
