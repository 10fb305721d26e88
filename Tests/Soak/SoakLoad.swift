import Foundation
import OutboundHTTP

/// The soak's steady load of readers, servers and inboxes: page and asset views (gzip, half of
/// them conditional), Article fetches (half signed), inbox activities and searches, each at its
/// own rate. Publishing and stampedes are the scenario's.
struct SoakLoad: Sendable {
    let settings: SoakScenario.Settings
    let site: SiteUnderTest
    let fediverse: FakeFediverse
    let catalog: SiteCatalog
    let traffic: InboxTraffic
    let state: SoakState

    /// Until `end`, timed by `driver`; `tickOffset` keeps a second run's activity ids apart from
    /// the first's (the inbox refuses an id twice); `neutral` takes each reply, like and boost
    /// back (`SoakScenario.inboxTick`).
    func readersAndInbox(until end: Date, driver: LoadDriver, tickOffset: Int = 0, neutral: Bool = false) async {
        await withDiscardingTaskGroup { group in
            group.addTask {
                await driver.steady("page", rate: settings.pageRate, until: end, cap: 256) { tick in
                    var random = SplitMix64(seed: settings.seed &+ UInt64(tick))
                    let roll = random.next() % 100
                    let url = roll < 70 ? catalog.posts[Int(random.next() % UInt64(catalog.posts.count))]
                        : roll < 85 ? catalog.lists[Int(random.next() % UInt64(catalog.lists.count))]
                        : catalog.assets[Int(random.next() % UInt64(catalog.assets.count))]
                    var headers: [(name: String, value: String)] = [("Accept-Encoding", "gzip")]
                    let conditional = random.next() % 2 == 0 ? catalog.etag(url) : nil
                    if let conditional { headers.append(("If-None-Match", conditional)) }
                    let kind = roll >= 85 ? "asset" : conditional == nil ? "page" : "page, If-None-Match"
                    let response = await driver.timed(kind, OutgoingRequest(url: url, headers: [("Accept", "text/html,*/*")] + headers))
                    catalog.remember(url, etag: response?.header("etag"))
                }
            }
            group.addTask {
                await driver.steady("article", rate: settings.articleRate, until: end, cap: 64) { tick in
                    var random = SplitMix64(seed: settings.seed &+ 1_000_003 &* UInt64(tick))
                    let url = catalog.posts[Int(random.next() % UInt64(catalog.posts.count))]
                    if tick % 2 == 0 {
                        await driver.timed("article, unsigned", OutgoingRequest(url: url, headers: [("Accept", "application/activity+json")]))
                    } else {
                        let actor = fediverse.actor(Int(random.next() % UInt64(fediverse.actorCount)))
                        await driver.timed("article, signed", try! traffic.signedFetch(url, by: actor, rfc9421: tick % 4 == 1))
                    }
                }
            }
            group.addTask {
                await driver.steady("inbox", rate: settings.inboxRate, until: end, cap: 64) { tick in
                    await SoakScenario.inboxTick(tick + tickOffset, seed: settings.seed, posts: catalog.posts, fediverse: fediverse,
                                                 traffic: traffic, state: state, driver: driver, neutral: neutral)
                }
            }
            group.addTask {
                await driver.steady("search", rate: settings.searchRate, until: end, cap: 8) { tick in
                    var random = SplitMix64(seed: settings.seed &+ 7 &* UInt64(tick))
                    let words = SiteUnderTest.words
                    let query = tick % 3 == 0 ? String(words[Int(random.next() % 20)].prefix(4))
                        : "\(words[Int(random.next() % 20)]) \(words[Int(random.next() % 20)])"
                    await driver.timed("search", OutgoingRequest(url: site.baseURL + "/search?q=" + query.replacingOccurrences(of: " ", with: "+")))
                }
            }
        }
    }
}
