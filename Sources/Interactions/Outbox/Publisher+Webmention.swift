import Foundation
import Storage

extension Publisher {
    /// Webmentions for a post published, changed or removed (with `webmention.send`): to every
    /// external link it has now, and to those it had when last sent and no longer has (a
    /// removed post: all of them), so each receiver can add, update or drop it. Held with the
    /// post's deliveries: a receiver fetches the page, which must be served first.
    func queueWebmentions(path: String, _ needed: PublicationState.Needed, heldFor generation: Int?, now: Date) throws {
        guard site.config.webmention.send, needed != .nothing else { return }
        let store = site.store
        let before = try store.webmentions.webmentionLinks(postPath: path)
        let linked = needed == .delete ? [] : (try site.externalLinks(path: path) ?? [])
        let targets = linked + before.filter { !linked.contains($0) }
        guard !targets.isEmpty else { return }
        try store.webmentions.queueWebmentions(source: site.config.absoluteURL(path), postPath: path, targets: targets, links: linked,
                                   heldFor: generation, now: now)
        if generation == nil { outbox.wake() }
    }
}
