"""The story: bovine's actors discover, follow, read, reply to, edit, delete and unfollow the
blog, and the blog's deliveries reach them signed. Each step asserts what a user (or the remote
server) would see; the first failing step stops the story (later ones depend on it)."""

from __future__ import annotations

import asyncio
import hashlib
import html
import time
import uuid
from datetime import datetime, timezone
from urllib.parse import urlparse

from bovine.clients import lookup_uri_with_webfinger
from bovine.crypto.types import CryptographicIdentifier
from bovine.utils import now_isoformat

from blog import Blog, Failure
from modern import ModernPeer
from peer import PUBLIC, Peer, as_list, id_of


def expect(condition, message: str):
    if not condition:
        raise Failure(message)


def describe(item) -> str:
    """What arrived, for failure messages."""
    if item is None:
        return "nothing"
    return f"{item.type} at {item.path} (signature: {'verified' if item.verified else item.error or 'signer ' + str(item.signer)})"


def followers_digest(ids) -> str:
    """FEP-8fcf's digest, as the receiving server computes it: XOR of SHA-256 of each id."""
    total = bytearray(32)
    for actor_id in ids:
        for index, byte in enumerate(hashlib.sha256(actor_id.encode()).digest()):
            total[index] ^= byte
    return total.hex()


def synchronization(item) -> dict:
    """The `Collection-Synchronization` parameters of a received request ({} without one)."""
    value = (item.headers or {}).get("collection-synchronization", "")
    params = {}
    for part in value.split(","):
        name, _, quoted = part.strip().partition("=")
        if quoted.startswith('"') and quoted.endswith('"'):
            params[name] = quoted[1:-1]
    return params


class Story:
    def __init__(self, peer: Peer, blog: Blog, log, modern: ModernPeer):
        self.peer, self.blog, self.log, self.modern = peer, blog, log, modern
        self.first_create = None
        self.token = uuid.uuid4().hex[:8]
        self.actor: dict = {}
        self.follow: dict = {}
        self.article_id = ""
        self.post_path = ""
        self.post_file = None
        self.alice_note = ""
        self.alice_text = ""

    # MARK: helpers

    def mention_blog(self) -> list[dict]:
        return [{"type": "Mention", "href": self.blog.actor, "name": "@" + self.blog.handle}]

    async def send(self, name: str, activity: dict, to: str | None = None) -> int:
        status, _ = await self.peer.post(name, to or self.actor.get("inbox") or self.blog.shared_inbox, activity)
        return status

    async def write_post(self, title: str, slug: str, body: str):
        now = datetime.now(timezone.utc).replace(microsecond=0)
        path = self.blog.root / "content" / "posts" / f"{now:%Y-%m-%d}-{slug}.md"
        path.write_text(f"---\ntitle: {title}\ndate: {now:%Y-%m-%dT%H:%M:%SZ}\nslug: {slug}\n"
                        f"summary: Written by the interop test.\n---\n\n{body}\n")
        return path, f"/{now:%Y}/{slug}/"

    async def wait_article(self, name: str, url: str, since: float, timeout: float = 15):
        return await self.peer.wait_for(
            lambda r: r.object is not None and r.object.get("type") == "Article" and r.object.get("id") == url,
            timeout, paths={self.peer.inbox(name)}, type="Create", since=since)

    # MARK: steps

    async def discover(self):
        """WebFinger (bovine's lookup) finds the actor; a bovine-signed GET reads it; its key parses."""
        actor_id, _ = await lookup_uri_with_webfinger(self.peer.session, "acct:" + self.blog.handle,
                                                       domain=self.blog.base)
        expect(actor_id == self.blog.actor, f"WebFinger for acct:{self.blog.handle} gave {actor_id!r}, "
                                            f"expected {self.blog.actor}")
        status, actor, text = await self.peer.get("alice", actor_id)
        expect(status == 200 and isinstance(actor, dict), f"signed GET {actor_id} answered {status}: {text[:200]}")
        expect(actor.get("id") == actor_id, f"the actor's id is {actor.get('id')!r}, expected {actor_id}")
        for key in ("inbox", "outbox", "followers", "publicKey"):
            expect(key in actor, f"the actor document has no '{key}'")
        identifier = CryptographicIdentifier.from_public_key(actor["publicKey"])
        expect(identifier.controller == actor_id, f"publicKey.owner is {identifier.controller}, expected {actor_id}")
        self.actor = actor
        return f"{actor_id}, inbox {actor['inbox']}, key {actor['publicKey'].get('id')}"

    async def forgery_step(self):
        """A Follow signed by bovine with mallory's key under alice's keyId is refused (401)."""
        activities, _ = self.peer.factories("alice")
        follow = activities.follow(self.blog.actor, id=self.peer.new_id("alice", "follows")).build()
        status = await self.peer.forged_post("mallory", "alice", self.actor["inbox"], follow)
        expect(status == 401, f"a Follow signed with the wrong key answered {status}, expected 401")
        expect(not self.blog.is_follower(self.peer.actor_id("alice")), "the forged Follow made alice a follower")
        return "401, nothing stored"

    async def follow_step(self):
        """alice's signed Follow → 202, and an Accept that bovine verifies, whose object is the Follow."""
        activities, _ = self.peer.factories("alice")
        follow = activities.follow(self.blog.actor, id=self.peer.new_id("alice", "follows")).build()
        since = time.monotonic()
        status = await self.send("alice", follow)
        expect(status == 202, f"the blog answered {status} to alice's Follow (expected 202)")
        accept = await self.peer.wait_for(lambda r: True, 10, paths={self.peer.inbox("alice")}, type="Accept",
                                          since=since)
        expect(accept is not None, "no Accept reached alice's inbox within 10 s\n" + self.blog.log_tail(15))
        expect(accept.verified, f"bovine did not verify the Accept's signature: {describe(accept)}")
        expect(accept.signer == self.blog.actor, f"the Accept was signed by {accept.signer}")
        accepted = accept.activity.get("object")
        expect(id_of(accepted) == follow["id"], f"Accept.object is {accepted!r}, expected the Follow {follow['id']}")
        if isinstance(accepted, dict):
            expect(accepted.get("type") == "Follow" and id_of(accepted.get("actor")) == self.peer.actor_id("alice"),
                   f"the embedded Follow is {accepted}")
        expect(self.blog.is_follower(self.peer.actor_id("alice")), "alice is not in the followers table")
        self.follow = follow
        return f"Accept signed with {accept.key_id}, object {'embedded' if isinstance(accepted, dict) else 'by id'}"

    async def blog_follows_step(self):
        """`lectern follow @carol@peer` → a Follow bovine verifies; bovine's Accept (object by id) →
        the follow is recorded as accepted and listed in the blog's `following` collection."""
        since = time.monotonic()
        output = await self.blog.run("follow", f"@carol@{self.peer.host}")
        follow = await self.peer.wait_for(lambda r: True, 10, paths={self.peer.inbox("carol")}, type="Follow", since=since)
        expect(follow is not None, f"no Follow reached carol's inbox within 10 s ({output.strip()})\n" + self.blog.log_tail(15))
        expect(follow.verified, f"bovine did not verify the Follow's signature: {describe(follow)}")
        expect(follow.signer == self.blog.actor, f"the Follow was signed by {follow.signer}")
        expect(id_of(follow.activity.get("object")) == self.peer.actor_id("carol"), f"Follow.object is {follow.activity.get('object')!r}")
        state = self.blog.scalar("SELECT state FROM following WHERE actor_id = ?", self.peer.actor_id("carol"))
        expect(state == "pending", f"the follow is {state!r} before the Accept, expected 'pending'")
        activities, _ = self.peer.factories("carol")
        accept = activities.accept(follow.activity, id=self.peer.new_id("carol", "accepts")).build()
        status = await self.send("carol", accept)
        expect(status == 202, f"the blog answered {status} to carol's Accept (expected 202)")
        expect(await self.blog.inbox_drained(), "the inbox queue did not drain within 5 s")
        state = self.blog.scalar("SELECT state FROM following WHERE actor_id = ?", self.peer.actor_id("carol"))
        expect(state == "accepted", f"the follow is {state!r} after bovine's Accept, expected 'accepted'")
        status, collection, text = await self.peer.get("alice", self.actor["following"] + "?page=1")
        expect(status == 200 and isinstance(collection, dict), f"signed GET of the following collection answered {status}: {text[:200]}")
        items = as_list(collection.get("orderedItems"))
        expect(items == [self.peer.actor_id("carol")], f"the following collection lists {items}")
        return f"Follow verified by bovine ({follow.key_id}), Accept by id recorded, following lists carol"

    async def publish_step(self):
        """A new post + `lectern publish` → alice gets a verified Create(Article); its id answers a
        bovine-signed GET with itself (and an unsigned one with 401: authorized fetch)."""
        slug = f"interop-{self.token}"
        self.post_file, self.post_path = await self.write_post(
            f"Interop post {self.token}", slug, f"A post published while bovine listens ({self.token}).")
        self.article_id = self.blog.base + self.post_path
        since = time.monotonic()
        await self.blog.run("publish")
        create = await self.wait_article("alice", self.article_id, since)
        expect(create is not None, f"no Create(Article {self.article_id}) reached alice within 15 s; got "
                                   f"{[describe(r) for r in self.peer.arrivals(since=since)]}\n{self.blog.log_tail(15)}")
        expect(create.verified, f"bovine did not verify the Create's signature: {describe(create)}")
        self.first_create = create
        article = create.object
        expect(article.get("attributedTo") == self.blog.actor, f"the Article is attributed to {article.get('attributedTo')}")
        expect(PUBLIC in as_list(article.get("to")), f"the Article is not public: to={article.get('to')}")
        status, _ = await self.blog.get(self.article_id, accept="application/activity+json")
        expect(status == 401, f"an unsigned GET of the Article answered {status}; with authorizedFetch it must be 401")
        status, document, text = await self.peer.get("alice", self.article_id)
        expect(status == 200 and isinstance(document, dict), f"signed GET {self.article_id} answered {status}: {text[:200]}")
        expect(document.get("id") == self.article_id, f"the fetched Article's id is {document.get('id')}")
        expect(document.get("type") == "Article", f"the fetched document is a {document.get('type')}")
        return f"Create(Article) {self.article_id} verified; signed GET 200, unsigned GET 401"

    async def knock_step(self):
        """bovine takes draft-cavage only: the blog's first request to it (signed with RFC 9421, the
        default) got 401, the same request went again in draft-cavage at once, and the answer was
        remembered for the peer's origin: every later request, POST or GET, was draft-cavage."""
        expect(len(self.peer.knocks) == 1, f"bovine refused {len(self.peer.knocks)} RFC 9421 requests, expected exactly "
                                           f"one (the first): {self.peer.knocks[:5]}")
        remembered = self.blog.scalar("SELECT rfc9421 FROM signature_memory WHERE origin = ?", self.peer.base)
        expect(remembered == 0, f"the blog remembers {remembered!r} for {self.peer.base}, expected 0 (draft-cavage)")
        method, path = self.peer.knocks[0]
        return f"one knock ({method} {path}) refused, then draft-cavage only: {len(self.peer.received)} POSTs verified"

    async def followers_sync_step(self):
        """FEP-8fcf: the Create to alice carried `Collection-Synchronization` whose digest is the
        peer's own (hashlib) over its actors that follow the blog, and the partial collection it
        names answers a bovine-signed GET with exactly them."""
        params = synchronization(self.first_create)
        expect(params, f"the Create to alice had no Collection-Synchronization header: {self.first_create.headers}")
        expect(params.get("collectionId") == self.blog.actor + "/followers", f"collectionId is {params.get('collectionId')}")
        mine = [self.peer.actor_id("alice")]
        expect(params.get("digest") == followers_digest(mine),
               f"digest {params.get('digest')} is not the peer's own {followers_digest(mine)} over {mine}")
        status, collection, text = await self.peer.get("alice", params.get("url", ""))
        expect(status == 200 and isinstance(collection, dict), f"the partial collection answered {status}: {text[:200]}")
        items = [id_of(item) for item in as_list(collection.get("orderedItems") or collection.get("items"))]
        expect(sorted(items) == sorted(mine), f"the partial collection lists {items}, expected {mine}")
        status, _ = await self.blog.get(params["url"], accept="application/activity+json")
        expect(status == 401, f"an unsigned GET of the partial collection answered {status}, expected 401")
        return f"digest matches, {params['url']} lists {len(items)} follower(s) to a signed GET, 401 unsigned"

    async def modern_step(self):
        """dana, on a server that takes RFC 9421 only (http-message-signatures), follows with an
        RFC 9421-signed Follow; her Accept and the next post's Create reach her verified by that
        library at the first try, and no draft-cavage request is ever sent there."""
        follow = {"@context": "https://www.w3.org/ns/activitystreams", "id": self.modern.actor_id("dana") + "/follows/1",
                  "type": "Follow", "actor": self.modern.actor_id("dana"), "object": self.blog.actor}
        since = time.monotonic()
        status = await self.modern.post("dana", self.blog.shared_inbox, follow)
        expect(status == 202, f"the blog answered {status} to dana's RFC 9421-signed Follow")
        accept = None
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and accept is None:
            accept = next((r for r in self.modern.received if r.type == "Accept" and r.at >= since), None)
            await asyncio.sleep(0.05)
        expect(accept is not None and accept.verified, f"no verified Accept at dana's inbox: {describe(accept)}")
        _, path = await self.write_post(f"Modern interop {self.token}", f"interop-modern-{self.token}", "For dana too.")
        article = self.blog.base + path
        since = time.monotonic()
        await self.blog.run("publish")
        create = None
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and create is None:
            create = next((r for r in self.modern.received if r.type == "Create" and r.at >= since
                           and isinstance(r.object, dict) and r.object.get("id") == article), None)
            await asyncio.sleep(0.05)
        expect(create is not None and create.verified, f"no verified Create({article}) at dana's inbox: {describe(create)}")
        expect(self.modern.refused_cavage == 0, f"{self.modern.refused_cavage} draft-cavage requests reached the RFC 9421-only peer")
        unverified = [r for r in self.modern.received if not r.verified]
        expect(not unverified, f"{len(unverified)} requests to dana did not verify: {[describe(r) for r in unverified[:3]]}")
        params = synchronization(create)
        expect(params.get("digest") == followers_digest([self.modern.actor_id("dana")]),
               f"the Create to dana carried digest {params.get('digest')}, expected the one over dana alone")
        gets = self.modern.gets
        expect(gets["signed"] >= 1 and gets["signed"] == gets["verified"],
               f"{gets['verified']} of {gets['signed']} of the blog's GETs verified by http-message-signatures")
        return (f"Follow (RFC 9421, signed by the library) → 202; Accept and Create verified by http-message-signatures; "
                f"{gets['verified']} signed GETs verified; no draft-cavage request sent")

    async def reply_step(self):
        """alice's public reply (Mastodon's addressing, with a Mention) is on the page within 5 s."""
        activities, objects = self.peer.factories("alice")
        self.alice_note = self.peer.new_id("alice", "statuses")
        self.alice_text = f"Interop reply from alice {self.token}"
        note = objects.note(id=self.alice_note, url=self.alice_note, content=f"<p>{self.alice_text}</p>",
                            in_reply_to=self.article_id, to={PUBLIC},
                            cc={self.peer.followers("alice"), self.blog.actor}, tag=self.mention_blog()).build()
        create = activities.create(note, id=self.alice_note + "/activity").build()
        status = await self.send("alice", create)
        expect(status == 202, f"the blog answered {status} to alice's reply (expected 202)")
        shown, waited, page = await self.blog.page_until(self.post_path, lambda h: self.alice_text in h, 5)
        expect(shown, f"the reply was not on {self.post_path} within 5 s\n{self.blog.log_tail(15)}")
        return f"on the page after {waited:.2f} s"

    async def digest_step(self):
        """The owner (an account on the peer) gets a verified direct Create(Note) listing it."""
        owner = self.peer.actor_id("owner")
        inbox = self.peer.inbox("owner")

        def is_digest(r):
            return r.object is not None and r.object.get("type") == "Note"

        digest = await self.peer.wait_for(is_digest, 1.5, paths={inbox}, type="Create")
        how = "sent by the server"
        if digest is None:
            output = await self.blog.run("digest", "--now")
            how = f"`lectern digest --now`: {output.strip().splitlines()[-1] if output.strip() else ''}"
            digest = await self.peer.wait_for(is_digest, 15, paths={inbox}, type="Create")
        expect(digest is not None, f"no digest reached the owner's inbox ({how})\n{self.blog.log_tail(15)}")
        expect(digest.verified, f"bovine did not verify the digest's signature: {describe(digest)}")
        note = digest.object
        to, cc = as_list(note.get("to")), as_list(note.get("cc"))
        expect(to == [owner], f"the digest is addressed to {to}, expected only {owner}")
        expect(PUBLIC not in to + cc, "the digest is public; it must be direct")
        mentions = [t for t in as_list(note.get("tag")) if isinstance(t, dict) and t.get("type") == "Mention"]
        expect(any(t.get("href") == owner for t in mentions), f"the digest does not mention the owner: {mentions}")
        content = html.unescape(note.get("content", ""))
        expect(self.alice_text in content, f"the digest does not list alice's comment: {content[:300]}")
        return how

    async def edit_step(self):
        """alice's Update(Note) changes the comment on the page."""
        activities, objects = self.peer.factories("alice")
        old_text = self.alice_text
        self.alice_text = f"Edited interop reply from alice {self.token}"
        note = objects.note(id=self.alice_note, url=self.alice_note, content=f"<p>{self.alice_text}</p>",
                            in_reply_to=self.article_id, to={PUBLIC},
                            cc={self.peer.followers("alice"), self.blog.actor}, tag=self.mention_blog()).build()
        note["updated"] = now_isoformat()
        update = activities.update(note, id=self.alice_note + "/updates/1").build()
        status = await self.send("alice", update)
        expect(status == 202, f"the blog answered {status} to alice's Update (expected 202)")
        shown, waited, page = await self.blog.page_until(
            self.post_path, lambda h: self.alice_text in h and f"<p>{old_text}</p>" not in h, 5)
        expect(shown, f"the edit was not on the page within 5 s\n{self.blog.log_tail(15)}")
        return f"edited text on the page after {waited:.2f} s"

    async def foreign_delete_step(self):
        """bob's Delete of alice's note is accepted (202) and has no effect."""
        activities, _ = self.peer.factories("bob")
        delete = activities.delete(self.alice_note, id=self.peer.new_id("bob", "deletes"), to={PUBLIC}).build()
        before = self.blog.inbox_counts().get(("ignored", "not-author"), 0)
        status = await self.send("bob", delete)
        expect(status == 202, f"the blog answered {status} to bob's Delete (expected 202, ignored)")
        expect(await self.blog.inbox_drained(), "the inbox queue did not drain within 5 s")
        after = self.blog.inbox_counts().get(("ignored", "not-author"), 0)
        expect(after == before + 1, f"bob's Delete was not counted as ignored (not-author): {before} → {after}")
        await self._settle()
        status, page = await self.blog.get(self.post_path)
        expect(self.alice_text in page, "alice's comment left the page after bob's Delete")
        expect(self.blog.comment(self.alice_note) is not None, "alice's comment left the database after bob's Delete")
        return "ignored (not-author), comment still there"

    async def delete_step(self):
        """alice's Delete (a Tombstone) removes the comment from the page."""
        activities, _ = self.peer.factories("alice")
        delete = activities.delete({"id": self.alice_note, "type": "Tombstone"}, id=self.alice_note + "#delete",
                                   to={PUBLIC}).build()
        status = await self.send("alice", delete)
        expect(status == 202, f"the blog answered {status} to alice's Delete (expected 202)")
        gone, waited, _ = await self.blog.page_until(self.post_path, lambda h: self.alice_text not in h, 5)
        expect(gone, "alice's deleted comment was still on the page after 5 s")
        return f"gone from the page after {waited:.2f} s"

    async def followers_only_step(self):
        """bob's followers-only reply shows nowhere; bob gets a verified direct Create(Note)."""
        activities, objects = self.peer.factories("bob")
        note_id = self.peer.new_id("bob", "statuses")
        text = f"Only for bob's followers {self.token}"
        note = objects.note(id=note_id, content=f"<p>{text}</p>", in_reply_to=self.article_id,
                            tag=self.mention_blog()).as_followers()
        note.cc.add(self.blog.actor)
        create = activities.create(note.build(), id=note_id + "/activity").build()
        since = time.monotonic()
        status = await self.send("bob", create)
        expect(status == 202, f"the blog answered {status} to bob's followers-only reply (expected 202)")
        bob = self.peer.actor_id("bob")
        answer = await self.peer.wait_for(lambda r: r.object is not None and r.object.get("type") == "Note", 10,
                                          paths={self.peer.inbox("bob")}, type="Create", since=since)
        expect(answer is not None, f"no automatic reply reached bob within 10 s\n{self.blog.log_tail(15)}")
        expect(answer.verified, f"bovine did not verify the automatic reply's signature: {describe(answer)}")
        reply = answer.object
        to, cc = as_list(reply.get("to")), as_list(reply.get("cc"))
        expect(bob in to, f"the automatic reply is addressed to {to}, not to bob")
        expect(PUBLIC not in to + cc, "the automatic reply is public; it must be direct")
        expect(reply.get("inReplyTo") == note_id, f"the automatic reply answers {reply.get('inReplyTo')}, not {note_id}")
        await self._settle()
        status, page = await self.blog.get(self.post_path)
        expect(text not in page, "bob's followers-only reply is on the page")
        expect(self.blog.comment(note_id) is None, "bob's followers-only reply was stored as a comment")
        return "direct reply to bob, nothing on the page"

    async def remove_step(self):
        """The post file removed + `lectern publish` → alice gets a verified Delete; the URL answers
        410 to browsers and a 410 Tombstone to ActivityPub."""
        self.post_file.unlink()
        since = time.monotonic()
        await self.blog.run("publish")
        delete = await self.peer.wait_for(lambda r: id_of(r.activity.get("object")) == self.article_id, 15,
                                          paths={self.peer.inbox("alice")}, type="Delete", since=since)
        expect(delete is not None, f"no Delete of {self.article_id} reached alice within 15 s; got "
                                   f"{[describe(r) for r in self.peer.arrivals(since=since)]}")
        expect(delete.verified, f"bovine did not verify the Delete's signature: {describe(delete)}")
        status, _ = await self.blog.get(self.post_path)
        expect(status == 410, f"the removed post's page answered {status}, expected 410")
        status, document, text = await self.peer.get("alice", self.article_id)
        expect(status == 410, f"a signed ActivityPub GET of the removed post answered {status}, expected 410")
        expect(isinstance(document, dict) and document.get("type") == "Tombstone",
               f"the 410 body is not a Tombstone: {text[:200]}")
        expect(document.get("id") == self.article_id, f"the Tombstone's id is {document.get('id')}")
        return f"Delete verified; HTML 410; Tombstone 410 (formerType {document.get('formerType')})"

    async def unfollow_step(self):
        """alice's Undo(Follow) ends the follow: the next post reaches bob (who follows now) and not alice."""
        activities, _ = self.peer.factories("alice")
        undo = activities.undo(self.follow, id=self.peer.new_id("alice", "undos")).build()
        status = await self.send("alice", undo)
        expect(status == 202, f"the blog answered {status} to alice's Undo(Follow) (expected 202)")
        expect(await self.blog.inbox_drained(), "the inbox queue did not drain within 5 s")
        expect(not self.blog.is_follower(self.peer.actor_id("alice")), "alice is still a follower after her Undo")
        # bob follows, so that the next post has somewhere to go: a positive control.
        bob_activities, _ = self.peer.factories("bob")
        since = time.monotonic()
        status = await self.send("bob", bob_activities.follow(self.blog.actor, id=self.peer.new_id("bob", "follows")).build())
        expect(status == 202, f"the blog answered {status} to bob's Follow")
        accept = await self.peer.wait_for(lambda r: r.verified, 10, paths={self.peer.inbox("bob")}, type="Accept",
                                          since=since)
        expect(accept is not None, "bob's Follow was not accepted (verified) within 10 s")
        path_file, path = await self.write_post(f"Second interop post {self.token}", f"interop-second-{self.token}",
                                                "Only followers hear of this one.")
        second = self.blog.base + path
        since = time.monotonic()
        published_at = time.time()
        await self.blog.run("publish")
        to_bob = await self.wait_article("bob", second, since)
        expect(to_bob is not None and to_bob.verified, f"the second post did not reach bob (verified): {describe(to_bob)}")
        await self._settle(1.0)
        to_alice = [r for r in self.peer.arrivals(paths={self.peer.inbox("alice")}, since=since)]
        expect(not to_alice, f"alice still received {[describe(r) for r in to_alice]} after her Undo")
        queued = self.blog.scalar("SELECT COUNT(*) FROM deliveries WHERE inbox = ? AND (created_at >= ? OR activity_id LIKE ?)",
                                  self.peer.inbox("alice"), published_at, second + "%")
        expect(queued == 0, f"{queued} deliveries to alice were queued after her Undo")
        return "bob got the second post, alice nothing"

    async def proofs_step(self):
        """Object integrity proofs made by apsig (FEP-8b32, an independent implementation): carol's
        Create relayed by bob (bob signs the request) and carol's note announced by bob are taken
        without a GET of carol's note; with the proof broken, both are checked at carol's server
        instead: what it serves is what is stored, never the relay's or the announcer's copy."""
        activities, objects = self.peer.factories("carol")
        bob = self.peer.actor_id("bob")

        def carols_note(text: str):
            note_id = self.peer.new_id("carol", "statuses")
            note = objects.note(id=note_id, url=note_id, content=f"<p>{text}</p>", in_reply_to=self.article_id,
                                to={PUBLIC}, cc={self.peer.followers("carol"), self.blog.actor},
                                tag=self.mention_blog()).build()
            path = urlparse(note_id).path
            self.peer.documents[path] = note  # carol's server serves it at its id
            return note_id, path, note

        def announce(note: dict) -> dict:
            return {"@context": "https://www.w3.org/ns/activitystreams", "id": self.peer.new_id("bob", "announces"),
                    "type": "Announce", "actor": bob, "object": note, "to": [PUBLIC]}

        async def shown(note_id: str) -> bool:
            await self.blog.inbox_drained()
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                if self.blog.comment(note_id) is not None:
                    return True
                await asyncio.sleep(0.05)
            return False

        # Relayed, proven: taken as carol's, with no GET of the note or the activity.
        note_id, path, note = carols_note(f"Relayed and proven {self.token}")
        create = self.peer.prove("carol", activities.create(note, id=note_id + "/activity").build())
        status = await self.send("bob", create, to=self.blog.shared_inbox)
        expect(status == 202, f"carol's proven Create relayed by bob answered {status}, expected 202\n{self.blog.log_tail(10)}")
        expect(await shown(note_id), "carol's relayed, proven reply was not stored")
        expect(self.blog.comment(note_id)["author_id"] == self.peer.actor_id("carol"), "the relayed reply is not carol's")
        expect(self.peer.get_paths.get(path, 0) == 0 and self.peer.get_paths.get(path + "/activity", 0) == 0,
               f"the blog fetched the relayed note anyway: {self.peer.get_paths}")

        # Relayed, proof broken (the content changed after apsig signed): checked at carol's server
        # (her server serves the note, not the activity), and her words are what is stored.
        relayed_original = f"Relayed, then changed {self.token}"
        note_id, path, note = carols_note(relayed_original)
        broken = self.peer.prove("carol", activities.create(note, id=note_id + "/activity").build())
        broken["object"] = dict(broken["object"], content="<p>Changed by the relay.</p>")
        status = await self.send("bob", broken, to=self.blog.shared_inbox)
        expect(status == 202, f"a relayed Create whose proof is broken answered {status}, expected 202 (checked at its origin)")
        expect(await shown(note_id), "carol's relayed note (broken proof) was not stored")
        expect(self.peer.get_paths.get(path, 0) >= 1, "the relayed note whose proof is broken was not fetched from carol's server")
        expect(relayed_original in self.blog.comment(note_id)["content_html"], "the stored note is the relay's copy, not carol's")

        # Announced, proven: the embedded copy is used, no GET of the note.
        note_id, path, note = carols_note(f"Announced and proven {self.token}")
        status = await self.send("bob", announce(self.peer.prove("carol", note)), to=self.blog.shared_inbox)
        expect(status == 202, f"bob's Announce answered {status}")
        expect(await shown(note_id), "carol's announced, proven note was not stored")
        expect(self.peer.get_paths.get(path, 0) == 0, f"the blog fetched the proven note anyway: {self.peer.get_paths}")

        # Announced, proof broken: fetched from carol's server, and her words are what is stored.
        original = f"Announced, then changed {self.token}"
        note_id, path, note = carols_note(original)
        changed = dict(self.peer.prove("carol", note), content="<p>Changed by the announcer.</p>")
        status = await self.send("bob", announce(changed), to=self.blog.shared_inbox)
        expect(status == 202, f"bob's Announce answered {status}")
        expect(await shown(note_id), "carol's announced note (broken proof) was not stored")
        expect(self.peer.get_paths.get(path, 0) >= 1, "the note whose proof is broken was not fetched from carol's server")
        expect(original in self.blog.comment(note_id)["content_html"], "the stored note is not the one carol's server serves")
        return "relayed and announced with apsig's proofs: taken without fetching; broken: checked at carol's server, her words stored"

    async def _settle(self, seconds: float = 0.4):
        """Lets the debounced re-render (250 ms) happen before checking that something did not change."""
        await asyncio.sleep(seconds)

    def steps(self):
        return [
            ("WebFinger + signed GET of the actor", self.discover),
            ("forged signature → 401", self.forgery_step),
            ("Follow → signed Accept", self.follow_step),
            ("lectern follow → Follow verified by bovine, its Accept recorded", self.blog_follows_step),
            ("publish → signed Create(Article), signed GET", self.publish_step),
            ("draft-cavage-only peer: one refused RFC 9421 knock, then remembered", self.knock_step),
            ("followers sync (FEP-8fcf): digest and partial collection", self.followers_sync_step),
            ("RFC 9421-only peer: Follow, Accept, Create verified by http-message-signatures", self.modern_step),
            ("public reply → comment on the page", self.reply_step),
            ("digest → signed direct Note to the owner", self.digest_step),
            ("Update(Note) → edited comment", self.edit_step),
            ("Delete by someone else → no effect", self.foreign_delete_step),
            ("Delete(Tombstone) → comment gone", self.delete_step),
            ("apsig's integrity proofs → relayed and announced without a fetch", self.proofs_step),
            ("followers-only reply → automatic direct reply", self.followers_only_step),
            ("post removed → signed Delete, 410 + Tombstone", self.remove_step),
            ("Undo(Follow) → no more deliveries", self.unfollow_step),
        ]
