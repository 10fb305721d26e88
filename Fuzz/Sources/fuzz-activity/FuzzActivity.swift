// libFuzzer target: what the inbox does with a request body before and after it is queued.
//  - APObject(json:) (depth check, then the lenient typed decoding), as the inbox gate, the
//    inbox worker and every fetched document read bodies, and OriginRules.violation against the
//    activity's own actor and a fixed one;
//  - the conversion of the activity and its embedded objects into stored comments
//    (CommentConversion.record);
//  - the body as an actor document: ActorConversion.actor(from:), .keys and .assertionKeys;
//  - every string in the document through Origin, Origin.normalized, HTTPURL.parse,
//    DisplayText.name/username and HTMLSanitizer.text / sanitize.
// Properties (trap when broken): HTTPURL.parse and Origin.normalized are idempotent; a converted
// actor has an http(s) id, a HTTPURL inbox, names without invisible characters and at most
// DisplayText.nameLimit characters, and every key it keeps is on the actor's origin; a converted
// comment has sanitized (stable) HTML and only HTTPURL links (its page, attachments, quote).
//
// Decoders: add one line to `decoders` below for each new decoder or conversion of the inbox
// (for example `{ body, activity in _ = try? SomeDecoder.decode(body) }`).
@testable import ActivityPub
import ActivityStreams
@testable import BlogModel
import Foundation
import HTMLMarkup
@testable import Interactions
import Storage

private let decoders: [@Sendable (_ body: [UInt8], _ activity: APObject) -> Void] = [
    { _, activity in _ = ActorConversion.actor(from: activity) },
    { _, activity in _ = ActorConversion.keys(from: activity, owner: activity.id ?? "https://a.example/users/a") },
    { _, activity in _ = ActorConversion.assertionKeys(from: activity, owner: activity.id ?? "https://a.example/users/a") },
    { _, activity in typedActivity(activity) },  // as InboxProcessor applies it, → CommentConversion
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzActivity(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // The gate's reading (the inbox worker's and every fetch's too), then its origin rules.
    guard let activity = try? APObject(json: bytes) else { return 0 }
    let actor = activity.actor.first ?? "https://remote.example/users/alice"
    _ = OriginRules.violation(activity, actor: actor)
    _ = OriginRules.violation(activity, actor: "https://remote.example/users/alice")

    for decode in decoders { decode(bytes, activity) }
    if let remote = ActorConversion.actor(from: activity) { checkActor(remote, activity) }

    var strings: [String] = []
    if let json = try? JSONSerialization.jsonObject(with: Data(bytes)) { collectStrings(json, into: &strings, limit: 200) }
    for string in strings { checkString(string) }
    return 0
}

private func collectStrings(_ value: Any, into strings: inout [String], limit: Int) {
    guard strings.count < limit else { return }
    switch value {
    case let string as String: strings.append(string)
    case let object as [String: Any]:
        for (key, member) in object { strings.append(key); collectStrings(member, into: &strings, limit: limit) }
    case let array as [Any]: for member in array { collectStrings(member, into: &strings, limit: limit) }
    default: break
    }
}

private func checkString(_ string: String) {
    if let url = HTTPURL.parse(string) {
        require(HTTPURL.parse(url) == url, "HTTPURL.parse is not idempotent: \(string.debugDescription) → \(url.debugDescription)")
    }
    _ = Origin(string)
    if let normalized = Origin.normalized(string) {
        require(Origin.normalized(normalized) == normalized,
                "Origin.normalized is not idempotent: \(string.debugDescription) → \(normalized.debugDescription)")
        require(Origin(normalized) == Origin(string), "Origin.normalized changed the origin of \(string.debugDescription)")
    }
    _ = Origin.withoutFragment(string)
    let name = DisplayText.name(string)
    require(!name.unicodeScalars.contains(where: DisplayText.isInvisible), "DisplayText.name kept an invisible character")
    _ = DisplayText.username(string)
    _ = HTMLSanitizer.text(string)
}

private func checkActor(_ remote: RemoteActor, _ document: APObject) {
    require(Origin(remote.id) != nil, "actor id \(remote.id.debugDescription) is not http(s)")
    require(HTTPURL.parse(remote.inbox) == remote.inbox, "actor inbox \(remote.inbox.debugDescription) is not a HTTPURL")
    for url in [remote.url, remote.icon, remote.sharedInbox].compactMap({ $0 }) {
        require(HTTPURL.parse(url) == url, "actor URL \(url.debugDescription) is not a HTTPURL")
    }
    for text in [remote.name, remote.handle].compactMap({ $0 }) {
        require(!text.unicodeScalars.contains(where: DisplayText.isInvisible), "actor name/handle kept an invisible character")
    }
    if let name = remote.name {
        require(name.unicodeScalars.contains { !$0.properties.isWhitespace }, "blank actor name kept")
        let base = name.unicodeScalars.filter {
            !$0.properties.isWhitespace && ![.nonspacingMark, .enclosingMark].contains($0.properties.generalCategory)
        }
        require(base.count <= DisplayText.nameLimit, "actor name longer than DisplayText.nameLimit")
    }
    for key in ActorConversion.keys(from: document, owner: remote.id) {
        require(Origin.same(key.keyID, remote.id), "key \(key.keyID.debugDescription) is not on the actor's origin")
    }
}

private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

// MARK: - typed decoding

private func typedActivity(_ activity: APObject) {
    _ = activity.activityType
    var notes = [activity]
    var next = activity.object?.embedded
    while let embedded = next, notes.count < 8 {  // Announce(Create(Note)) and deeper
        notes.append(embedded)
        next = embedded.object?.embedded
    }
    if let parent = activity.inReplyTo?.embedded { notes.append(parent) }
    _ = activity.target?.id
    for note in notes {
        _ = note.kind
        _ = note.audience
        _ = note.inReplyTo?.id
        let record = CommentConversion.record(note, id: note.id ?? "https://remote.example/notes/1",
                                              authorID: "https://remote.example/users/alice", postPath: "/2025/post/",
                                              parentID: nil, visibility: .public, state: .approved,
                                              language: "en", now: Date(timeIntervalSince1970: 1_700_000_000))
        require(HTMLSanitizer.sanitize(record.contentHTML) == record.contentHTML, "comment HTML is not sanitized")
        for url in [record.url, record.quoteURL].compactMap({ $0 }) {
            require(HTTPURL.parse(url) == url, "comment URL \(url.debugDescription) is not a HTTPURL")
        }
        for attachment in CommentConversion.attachments(note) {
            require(HTTPURL.parse(attachment.url) == attachment.url, "attachment URL \(attachment.url.debugDescription) is not a HTTPURL")
        }
        _ = CommentConversion.visibility(note: note, activity: activity)
        _ = CommentConversion.webURL(note)
    }
}
