"""Every real-world activity shape in Tests/Fixtures/activities/, signed by bovine as the
fixture's actor and POSTed to the blog's shared inbox, must end as expected.json says.

The rules are those of Tests/LecternServerTests/ActivityFixtureTests.swift (the in-process
harness), applied from outside: the HTTP status, and a read-only look at the database before
and after each activity (inbox_counts, comments, reactions, followers, mentions)."""

from __future__ import annotations

import asyncio
import html
import json
import re
import time
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from blog import Blog
from peer import PUBLIC, Peer, id_of

REMOTE_ACTOR = re.compile(r"\{\{REMOTE\}\}/users/([a-z0-9_]+)")
WELCOME = "/2025/welcome-to-lectern/"


def fixture_names(folder: Path) -> list[str]:
    return sorted(p.name[:-5] for p in folder.glob("*.json")
                  if not p.name.endswith(".remote.json") and p.name != "expected.json")


def actor_names(folder: Path) -> set[str]:
    """Every `{{REMOTE}}/users/NAME` the fixtures and their remote documents use, and bob."""
    names = {"bob"}
    for path in folder.glob("*.json"):
        names.update(REMOTE_ACTOR.findall(path.read_text()))
    return names


@dataclass
class Snapshot:
    counts: dict
    likes: int
    announces: int
    followers: set
    mentions: int
    sent_objects: int
    comment: dict | None
    object_comment: dict | None
    comment_ids: set


class FixtureRun:
    def __init__(self, peer: Peer, blog: Blog, folder: Path, log, verbose: bool = False):
        self.peer, self.blog, self.folder, self.log, self.verbose = peer, blog, folder, log, verbose
        self.post_id = blog.base + WELCOME
        self.comment = peer.base + "/users/bob/notes/existing-bob"
        #: how many times bob's comment was written (a deleted one is written again under a new id)
        self.comment_made = 0
        self.failures: list[str] = []
        self.total = 0
        #: comments the fixtures made: id → words they must show
        self.comments: dict[str, list[str]] = {}

    def read(self, name: str) -> str:
        return (self.folder / name).read_text()

    def substitute(self, text: str) -> str:
        now = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        for placeholder, value in (("{{REMOTE}}", self.peer.base), ("{{POST}}", self.post_id),
                                   ("{{POST_URL}}", self.post_id), ("{{BLOG_ACTOR}}", self.blog.actor),
                                   ("{{BLOG_FOLLOWERS}}", self.blog.actor + "/followers"),
                                   ("{{BLOG_INBOX}}", self.blog.actor + "/inbox"),
                                   ("{{COMMENT}}", self.comment), ("{{NOW}}", now)):
            text = text.replace(placeholder, value)
        return text

    def signer(self, activity: dict) -> str:
        actor = id_of(activity.get("actor")) or ""
        return actor.rsplit("/", 1)[-1]

    async def send(self, activity: dict) -> int:
        status, _ = await self.peer.post(self.signer(activity), self.blog.shared_inbox, activity)
        return status

    # MARK: preparations (as the Swift harness does them, but through the protocol)

    async def ensure_comment(self):
        """bob's comment that `{{COMMENT}}` names, there again if a fixture deleted it."""
        if self.blog.comment(self.comment) is not None:
            return
        if self.comment_made:
            # A fixture deleted it: its tombstone keeps that id out for good, so bob writes anew.
            self.comment_made += 1
            self.comment = f"{self.peer.base}/users/bob/notes/existing-bob-{self.comment_made}"
        activities, objects = self.peer.factories("bob")
        note = objects.note(id=self.comment, url=self.comment, content="<p>bob's existing comment</p>",
                            in_reply_to=self.post_id, to={PUBLIC},
                            cc={self.peer.followers("bob"), self.blog.actor},
                            tag=[{"type": "Mention", "href": self.blog.actor, "name": "@" + self.blog.handle}]).build()
        create = activities.create(note, id=f"{self.comment}/activity-{uuid.uuid4().hex}").build()
        status = await self.send(create)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            if self.blog.comment(self.comment) is not None and self.blog.inbox_backlog() == 0:
                self.comment_made = self.comment_made or 1
                return
            await asyncio.sleep(0.02)
        raise RuntimeError(f"bob's comment {self.comment} could not be created (answered {status})")

    async def reset_reactions(self, name: str):
        """One like or boost per actor and post: a fixture's actor starts without any. The Swift
        harness deletes them in the store; here the actor sends Undo for each (signed by bovine)."""
        actor = self.peer.actor_id(name)
        rows = self.blog.query("SELECT activity_id FROM reactions WHERE actor_id = ?", actor)
        if not rows:
            return
        activities, _ = self.peer.factories(name)
        for row in rows:
            undo = activities.undo(row[0], id=self.peer.new_id(name, "undos")).build()
            await self.send(undo)
        await self.blog.inbox_drained()
        left = self.blog.scalar("SELECT COUNT(*) FROM reactions WHERE actor_id = ?", actor)
        if left:
            raise RuntimeError(f"{left} reactions of {name} are still there after Undo")

    # MARK: before / after

    def snapshot(self, activity: dict) -> Snapshot:
        reactions = {row[0]: row[1] for row in self.blog.query(
            "SELECT kind, COUNT(*) FROM reactions WHERE post_path = ? GROUP BY kind", WELCOME)}
        object_id = id_of(activity.get("object"))
        comment = self.blog.comment(self.comment)
        object_comment = self.blog.comment(object_id) if object_id else None
        return Snapshot(
            counts=self.blog.inbox_counts(),
            likes=reactions.get("like", 0), announces=reactions.get("announce", 0),
            followers={row[0] for row in self.blog.query("SELECT actor_id FROM followers")},
            mentions=self.blog.scalar("SELECT COUNT(*) FROM mentions"),
            sent_objects=self.blog.scalar("SELECT COUNT(*) FROM sent_objects"),
            comment=dict(comment) if comment else None,
            object_comment=dict(object_comment) if object_comment else None,
            comment_ids={row[0] for row in self.blog.query(
                "SELECT c.id FROM comments c JOIN remote_actors a ON a.id = c.author_id")})

    def fresh_comments(self, before: Snapshot) -> list[dict]:
        """Comments stored since `before`, newest first (as the store lists them)."""
        rows = self.blog.query("SELECT c.* FROM comments c JOIN remote_actors a ON a.id = c.author_id "
                               "ORDER BY c.published_at DESC, c.id")
        return [dict(r) for r in rows if r["id"] not in before.comment_ids]

    @staticmethod
    def attachments(text: str | None) -> int:
        """How many attachments Lectern's decoder reads (it reads all or none)."""
        try:
            items = json.loads(text) if text else []
        except ValueError:
            return 0
        kinds = {"image", "video", "audio", "document", "link"}
        if not isinstance(items, list) or not all(isinstance(i, dict) and isinstance(i.get("url"), str)
                                                  and i.get("kind") in kinds for i in items):
            return 0
        return len(items)

    @staticmethod
    def poll_options(text: str | None):
        try:
            poll = json.loads(text) if text else None
            return [o["name"] for o in poll["options"]] if isinstance(poll, dict) else None
        except (ValueError, KeyError, TypeError):
            return None

    def check(self, expected: dict, status: int, before: Snapshot, after: Snapshot) -> str | None:
        outcome = expected["outcome"]
        if outcome == "refused":
            return None if status == expected.get("status") else f"answered {status}, expected {expected.get('status')}"
        if status != 202:
            return f"answered {status}, expected 202"
        counted = [key for key, value in after.counts.items() if before.counts.get(key) != value]
        reasons = {reason for _, reason in counted}
        if outcome == "ignored":
            reason = expected.get("reason", "")
            hit = any(kind == "ignored" and (r == reason or r.startswith(reason + ":")) for kind, r in counted)
            return None if hit else f"not counted as ignored ({reason}); counted {sorted(counted)}"
        if outcome == "profile-update":
            return None if "profile-update" in reasons else f"counted {sorted(counted)}"
        if outcome == "comment":
            fresh = self.fresh_comments(before)
            contains = expected.get("contains") or []
            words = contains[0] if contains else ""
            stored = next((c for c in fresh if words in (c["content_html"] or "") + (c["title"] or "")), None)
            if stored is None and fresh:
                stored = fresh[-1]
            if stored is None:
                return f"no comment stored; counted {sorted(counted)}"
            shown = (stored["content_html"] or "") + " " + (stored["title"] or "")
            for words in contains:
                if words not in shown:
                    return f"comment lacks “{words}”: {shown[:300]}"
            if expected.get("visibility") and stored["visibility"] != expected["visibility"]:
                return f"visibility {stored['visibility']}"
            if expected.get("parent") == "comment" and stored["parent_id"] is None:
                return "not threaded under a comment"
            if expected.get("parent") == "post" and stored["parent_id"] is not None:
                return f"threaded under {stored['parent_id']}"
            if "attachments" in expected and self.attachments(stored["attachments"]) != expected["attachments"]:
                return f"{self.attachments(stored['attachments'])} attachments, expected {expected['attachments']}"
            if "contentWarning" in expected and stored["summary"] != expected["contentWarning"]:
                return f"warning {stored['summary']}"
            if "quote" in expected and stored["quote_url"] != self.substitute(expected["quote"]):
                return f"quote {stored['quote_url']}"
            if "poll" in expected and self.poll_options(stored["poll"]) != expected["poll"]:
                return f"poll {stored['poll']}"
            self.comments[stored["id"]] = contains
            return None
        if outcome == "edit":
            text = (after.comment or {}).get("content_html") or ""
            return None if all(w in text for w in expected.get("contains") or []) else f"comment not edited: {text}"
        if outcome == "delete":
            return None if after.comment is None else "comment still there"
        if outcome == "reaction":
            grew = after.announces > before.announces if expected.get("kind") == "announce" else after.likes > before.likes
            return None if grew else f"no {expected.get('kind')} counted; counted {sorted(counted)}"
        if outcome == "unreaction":
            shrank = (after.announces < before.announces if expected.get("kind") == "announce"
                      else after.likes < before.likes)
            return None if shrank or "unreaction" in reasons else f"reaction not removed; counted {sorted(counted)}"
        if outcome == "follow":
            return None if len(after.followers) > len(before.followers) else "no follower added"
        if outcome == "unfollow":
            return (None if len(after.followers) < len(before.followers) or "unfollow" in reasons
                    else f"follower not removed; counted {sorted(counted)}")
        if outcome == "auto-reply":
            return None if "auto-reply" in reasons and after.object_comment is None else f"counted {sorted(counted)}"
        if outcome == "mention":
            return None if after.mentions > before.mentions else f"no mention kept; counted {sorted(counted)}"
        if outcome == "answered":
            # Answered by an activity of ours (a quote request): counted, and the answer kept to be served.
            reason = expected.get("reason", "")
            return (None if reason in reasons and after.sent_objects > before.sent_objects
                    else f"not answered ({reason}); counted {sorted(counted)}")
        return f"unknown expectation {outcome}"

    # MARK: the run

    async def run(self) -> tuple[int, int, list[str]]:
        expectations = json.loads(self.read("expected.json"))
        fixtures = fixture_names(self.folder)
        self.total = len(fixtures)
        if set(fixtures) != set(expectations):
            self.failures.append(f"fixtures without an expectation or expectations without a fixture: "
                                 f"{sorted(set(fixtures) ^ set(expectations))}")
        # Dependencies first (an Undo after what it undoes).
        ordered = ([n for n in fixtures if not expectations.get(n, {}).get("after")]
                   + [n for n in fixtures if expectations.get(n, {}).get("after")])
        rerun = 0
        for name in ordered:
            expected = expectations.get(name)
            if expected is None:
                continue
            started = time.monotonic()
            try:
                problem = await self.one(name, expected, rerun + (1 if expected.get("after") else 0))
            except Exception as error:  # noqa: BLE001 - one fixture's crash is its failure, not the run's
                problem = f"{type(error).__name__}: {error}"
            if expected.get("after"):
                rerun += 1
            if problem:
                self.failures.append(f"{name}: {problem}")
                self.log(f"    ✗ {name}: {problem}")
            elif self.verbose:
                self.log(f"    ✓ {name}: {expected['outcome']} {expected.get('reason') or expected.get('kind') or ''}"
                         f" ({time.monotonic() - started:.2f} s)")
        return self.total - len(self.failures), self.total, self.failures

    async def one(self, name: str, expected: dict, rerun: int) -> str | None:
        await self.ensure_comment()
        # One automatic answer per actor and post a day: each fixture starts with none sent
        # (the Swift harness does the same in the store; no protocol message resets it).
        self.blog.forget_automatic_replies()
        raw = self.read(name + ".json")
        if expected["outcome"] == "reaction":
            for actor in sorted(set(REMOTE_ACTOR.findall(raw)) - {"bob"}):
                await self.reset_reactions(actor)
        # An Undo needs what it undoes: that fixture is sent again first, under a new id.
        renamed = None
        if expected.get("after"):
            again = json.loads(self.substitute(self.read(expected["after"] + ".json")))
            original = again["id"]
            renamed = (original, f"{original}-again-{rerun}")
            again["id"] = renamed[1]
            status = await self.send(again)
            if status != 202:
                return f"its dependency {expected['after']} answered {status}"
            await self.blog.inbox_drained()

        def substitute(text: str) -> str:
            text = self.substitute(text)
            if renamed:
                text = text.replace(f'"{renamed[0]}"', f'"{renamed[1]}"')
            return text

        served = self.folder / (name + ".remote.json")
        if served.exists():
            for path, document in json.loads(substitute(served.read_text())).items():
                self.peer.documents[path] = document
        activity = json.loads(substitute(raw))
        # Undo fixtures share shapes (and ids) with each other: each is sent under its own.
        if renamed and isinstance(activity.get("id"), str):
            activity["id"] = f"{activity['id']}-run-{rerun}"
        if self.signer(activity) not in self.peer.keys:
            return f"no key for its actor {activity.get('actor')}"
        before = self.snapshot(activity)
        status = await self.send(activity)
        await self.blog.inbox_drained()
        after = self.snapshot(activity)
        problem = self.check(expected, status, before, after)
        if problem and expected["outcome"] == "ignored" and status == 202 and not self.queued(activity):
            # Accepted at the inbox's door without being queued (no id, say): counted in memory and
            # written by the server every 10 s. Wait for that write.
            deadline = time.monotonic() + 12
            while problem and time.monotonic() < deadline:
                await asyncio.sleep(0.25)
                after = self.snapshot(activity)
                problem = self.check(expected, status, before, after)
        return problem

    async def discussion(self) -> tuple[int, str]:
        """The post's page and its older comment pages (the page shows the newest comments and
        links the older ones with rel="prev"), as text."""
        status, page = await self.blog.get(WELCOME)
        pages, seen = [page], {WELCOME}
        while status == 200 and len(pages) < 50:
            older = re.search(r'<a href="([^"]+)" rel="prev"', pages[-1])
            if not older or older.group(1) in seen:
                break
            seen.add(older.group(1))
            status, page = await self.blog.get(html.unescape(older.group(1)))
            pages.append(page)
        return status, html.unescape("\n".join(pages))

    async def shown_on_page(self, timeout: float = 5) -> tuple[int, list[str]]:
        """The fixtures' comments that are still there (approved) are on the post's pages, with
        their words; (how many checked, what is missing)."""
        missing: list[str] = []
        checked = 0
        deadline = time.monotonic() + timeout
        while True:
            status, text = await self.discussion()
            missing, checked = [], 0
            for comment_id, words in self.comments.items():
                row = self.blog.comment(comment_id)
                if row is None or row["state"] != "approved" or row["post_path"] != WELCOME:
                    continue
                checked += 1
                absent = [w for w in words if w not in text]
                if absent:
                    missing.append(f"{comment_id}: {absent}")
            if status == 200 and not missing or time.monotonic() >= deadline:
                if status != 200:
                    missing.append(f"GET of {WELCOME} or its older comment pages answered {status}")
                return checked, missing
            await asyncio.sleep(0.25)

    def queued(self, activity: dict) -> bool:
        activity_id = activity.get("id")
        return bool(activity_id) and bool(self.blog.scalar("SELECT COUNT(*) FROM received_activities WHERE id = ?",
                                                           activity_id))
