import ActivityPub
import ActivityStreams
import BlogModel
import Foundation
import Storage

/// Moderation from the fediverse: the owner answers a digest from their own account — `hide 3`,
/// `approve 3`, `block 3` (the commenter), `block domain 3` — and the blog acts, then replies
/// with what it did. Only a signed reply from the configured owner counts (the signer is the
/// verified `authorID`); anyone else answering one of the blog's notes is ignored.
extension InboxProcessor {
    enum OwnerCommand: Equatable {
        case hide(Int), approve(Int), block(Int), blockDomain(Int)
    }

    /// A reply to one of the blog's own notes (`/actor/notes/…`).
    func answerToOurNote(_ note: APObject, noteID: String, authorID: String, target: String, now: Date) async throws -> Effects {
        guard let owner = config.owner, try store.values.setting(BlogOwnerResolver.settingKey(owner)) == authorID,
              let ownerActor = try store.actors.remoteActor(id: authorID) else { return .ignored("not-owner") }
        let html = CommentConversion.content(of: note, language: config.language).html
        let commands = Self.ownerCommands(in: html)
        guard !commands.isEmpty else { return .ignored("no-command") }
        var changed = Set<String>()
        var report: [String] = []
        for command in commands {
            let number: Int
            switch command { case .hide(let n), .approve(let n), .block(let n), .blockDomain(let n): number = n }
            guard let commentID = try store.digests.digestComment(noteID: target, number: number),
                  let comment = try store.comments.comment(id: commentID) else {
                report.append("\(number): no such comment in that digest")
                continue
            }
            let who = try store.actors.remoteActor(id: comment.authorID).map { $0.handle ?? $0.id } ?? comment.authorID
            switch command {
            case .hide:
                if let path = try store.comments.setCommentState(id: commentID, .rejected) { changed.insert(path) }
                report.append("\(number): hidden (\(who))")
            case .approve:
                if let path = try store.comments.setCommentState(id: commentID, .approved) { changed.insert(path) }
                report.append("\(number): approved (\(who))")
            case .block:
                changed.formUnion(try store.blocks.block(.actor, comment.authorID, reason: "blocked from a digest"))
                report.append("\(number): blocked \(who)")
            case .blockDomain:
                let host = URLComponents(string: comment.authorID)?.host?.lowercased() ?? ""
                changed.formUnion(try store.blocks.block(.domain, host, reason: "blocked from a digest"))
                report.append("\(number): blocked the domain \(host)")
            }
        }
        let answer = try activities.directNote(
            to: ownerActor, html: report.map { "<p>\(HTMLText.escape($0))</p>" }.joined(), inReplyTo: noteID, now: now)
        try outbox.send(answer.activity, to: [ownerActor.inbox], keeping: answer.kept, now: now)
        return .applied("owner-command", posts: changed)
    }

    /// The commands in a reply's HTML, one per line (mentions, words before the command and punctuation ignored).
    static func ownerCommands(in html: String) -> [OwnerCommand] {
        // Lines are paragraphs and <br>s; each is made plain text on its own (plain text folds white space).
        let lines = html.replacingOccurrences(of: "</p>", with: "<br>").components(separatedBy: "<br").map { piece in
            HTMLText.plain(piece.hasPrefix(">") || piece.hasPrefix("/>") || piece.hasPrefix(" />") ? "<br" + piece : piece)
        }
        return lines.compactMap { line in
            // Whatever precedes the command (the mention of the blog, however it was marked up) is skipped.
            let all = line.lowercased().split(whereSeparator: { $0.isWhitespace || $0 == "," || $0 == "." || $0 == "!" }).map(String.init)
            guard let start = all.firstIndex(where: { ["hide", "reject", "approve", "show", "block"].contains($0) }) else { return nil }
            let words = Array(all[start...])
            guard let number = words.last.flatMap({ Int($0) }), number > 0 else { return nil }
            switch words.dropLast() {
            case ["hide"], ["reject"]: return .hide(number)
            case ["approve"], ["show"]: return .approve(number)
            case ["block"]: return .block(number)
            case ["block", "domain"]: return .blockDomain(number)
            default: return nil
            }
        }
    }
}
