"""The story a GoToSocial user and the blog's owner live through, step by step: follow, a new
post in the home timeline, replies of each visibility, edit, delete, favourite, boost, the
owner's digest and moderation by reply, and the blog following back. Each wait is bounded."""

from __future__ import annotations

import html
import re
import secrets
import time

import requests

from common import Failure, Lectern, Steps, expect, wait_until
from gotosocial import Client, GoToSocial, describe_status

WAIT = 5.0  # what a reader would call "at once"


def strip_tags(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", markup or ""))


class Story:
    def __init__(self, blog: Lectern, gts: GoToSocial, alice: Client, owner: Client, ca_file: str, label: str):
        self.blog = blog
        self.gts = gts
        self.alice = alice
        self.owner = owner
        self.ca_file = ca_file
        self.label = label
        self.token = secrets.token_hex(3)
        self.blog_handle = f"@blog@{blog.name}"
        self.blog_account: dict | None = None
        self.post_url: str | None = None
        self.post_title: str | None = None
        self.status_id: str | None = None
        self.replies: dict[str, tuple[str, str]] = {}  # visibility → (status id, text)

    def steps(self) -> list[tuple[str, object]]:
        return [
            ("webfinger finds every actor the blog signs with", self.webfinger),
            ("follow: GoToSocial user follows the blog, accepted", self.follow),
            ("publish: the post reaches the home timeline", self.publish),
            ("publish: the status shows the title, no CW, language en", self.status_shape),
            ("reply: public reply on the post page", lambda: self.reply_shown("public")),
            ("reply: unlisted reply on the post page", lambda: self.reply_shown("unlisted")),
            ("reply: followers-only and direct replies not shown", self.replies_hidden),
            ("edit: the edited reply replaces the old text", self.edit),
            ("delete: the deleted reply leaves the page", self.delete),
            ("reactions: favourite and boost counted on the page", self.reactions),
            ("digest: the owner gets a direct message", self.digest),
            ("digest: 'hide N' from the owner hides the comment", self.hide),
            ("follow back: `lectern follow`, alice authorizes, accepted", self.follow_back),
            ("follow back: `lectern unfollow` ends it", self.unfollow),
        ]

    # MARK: helpers

    def page(self, url: str) -> tuple[int, str]:
        response = requests.get(url, headers={"Accept": "text/html"}, timeout=10, verify=self.ca_file)
        return response.status_code, response.text

    def page_until(self, predicate, timeout: float = WAIT) -> tuple[bool, float, str]:
        last = [""]

        def probe():
            status, text = self.page(self.post_url)
            last[0] = f"{status}" if status != 200 else text
            return status == 200 and predicate(text)

        held, waited = wait_until(probe, timeout, 0.2)
        return bool(held), waited, last[0]

    def gts_log(self, *needles: str, lines: int = 8) -> str:
        """GoToSocial's log lines about the blog (its errors explain most failures)."""
        try:
            text = self.gts.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return ""
        hits = [line for line in text if any(n in line for n in needles) and ("level=ERROR" in line or "level=WARN" in line)]
        return "\n".join("    gts: " + line[:500] for line in hits[-lines:])

    def diagnostics(self) -> str:
        return (f"\n  GoToSocial log (warnings and errors naming {self.blog.name}):\n{self.gts_log(self.blog.name)}"
                f"\n  lectern serve log:\n{self.blog.log_tail(8)}")

    def need_post(self) -> str:
        """The post's status id on GoToSocial: from the timeline, else resolved by its URL."""
        expect(self.post_url, "no post was published (the publish step failed)")
        if self.status_id:
            return self.status_id
        response = self.alice.session.get(self.alice.base + "/api/v2/search", timeout=30,
                                          params={"q": self.post_url, "resolve": "true", "type": "statuses"})
        statuses = response.json().get("statuses", []) if response.status_code == 200 else []
        expect(statuses, f"GoToSocial cannot resolve {self.post_url} either: {response.status_code} "
                         f"{response.text[:200]}{self.diagnostics()}")
        self.status_id = statuses[0]["id"]
        return self.status_id

    def lectern(self, *args: str) -> str:
        """A `lectern` command; when it fails, GoToSocial's log says why as often as Lectern's."""
        try:
            return self.blog.run(*args)
        except Failure as failure:
            raise Failure(f"{failure}{self.diagnostics()}")

    def inbox_total(self) -> int:
        inbox = self.blog.json("status").get("inbox", {})
        return sum(sum(inbox.get(kind, {}).values()) for kind in ("applied", "ignored", "refused"))

    def say(self, client: Client, text: str, visibility: str, in_reply_to: str) -> dict:
        return client.post("/api/v1/statuses", status=text, visibility=visibility, in_reply_to_id=in_reply_to)

    # MARK: steps

    def webfinger(self):
        """GoToSocial checks a signer by WebFinger on `preferredUsername@host` of the key's owner:
        the blog's actor and its instance actor (which signs its GETs) must both answer."""
        found = []
        for url in (self.blog.actor, self.blog.base + "/instance-actor"):
            response = requests.get(url, headers={"Accept": "application/activity+json"}, timeout=10, verify=self.ca_file)
            expect(response.status_code == 200, f"GET {url} (unsigned) answered {response.status_code}")
            actor = response.json()
            resource = f"acct:{actor.get('preferredUsername')}@{self.blog.name}"
            finger = requests.get(self.blog.base + "/.well-known/webfinger", params={"resource": resource},
                                  timeout=10, verify=self.ca_file)
            expect(finger.status_code == 200, f"WebFinger {resource} (for {url}) answered {finger.status_code}: "
                                              f"{finger.text[:200]}")
            selves = [link.get("href") for link in finger.json().get("links", []) if link.get("rel") == "self"]
            expect(url in selves, f"WebFinger {resource} links self to {selves}, not {url}")
            found.append(resource)
        return ", ".join(found)

    def follow(self):
        account, what = self.alice.search_account(self.blog_handle)
        expect(account, f"/api/v2/search?q={self.blog_handle}&resolve=true found no account ({what}){self.diagnostics()}")
        self.blog_account = account
        self.alice.post(f"/api/v1/accounts/{account['id']}/follow")
        relationship, waited = wait_until(
            lambda: (lambda r: r if r.get("following") else None)(self.alice.relationship(account["id"])), WAIT, 0.2)
        if not relationship:
            last = self.alice.relationship(account["id"])
            raise Failure(f"relationship after {waited:.1f} s: following={last.get('following')} "
                          f"requested={last.get('requested')}{self.diagnostics()}")
        actor = self.alice.me()["url"]
        followers, _ = wait_until(lambda: [f for f in self.blog.json("followers") if self.alice.username in f.get("actor", "")],
                                  WAIT, 0.3)
        expect(followers, f"`lectern followers --json` does not list alice ({actor}): {self.blog.json('followers')}")
        return f"following after {waited:.2f} s; lectern lists {followers[0].get('actor')}"

    def publish(self):
        self.post_title = f"Real server post {self.token}"
        _, self.post_url = self.blog.write_post(self.post_title, f"real-gts-{self.label}-{self.token}",
                                                f"A post published while GoToSocial listens ({self.token}).")
        self.lectern("publish")

        def arrived():
            for status in self.alice.home():
                if self.post_url in (status.get("uri"), status.get("url")):
                    return status
            return None

        status, waited = wait_until(arrived, WAIT, 0.3)
        expect(status, f"{self.post_url} not in alice's home timeline within {WAIT:.0f} s{self.diagnostics()}")
        self.status_id = status["id"]
        self.status = status
        return f"after {waited:.2f} s: {describe_status(status)}"

    def status_shape(self):
        expect(self.status_id, "no status to look at (the publish step failed)")
        status = self.alice.call("GET", f"/api/v1/statuses/{self.status_id}")
        seen = describe_status(status)
        problems = []
        if status.get("spoiler_text"):
            problems.append(f"a content warning the writer did not ask for: {status['spoiler_text']!r}")
        if self.post_title not in strip_tags(status.get("content", "")):
            problems.append("the title is not in the content")
        if status.get("language") != "en":
            problems.append(f"language {status.get('language')!r}, not 'en'")
        expect(not problems, "; ".join(problems) + f"\n  status: {seen}")
        return seen

    def reply_shown(self, visibility: str):
        parent = self.need_post()
        text = f"{visibility.capitalize()} reply from GoToSocial {self.token}"
        reply = self.say(self.alice, f"{self.blog_handle} {text}", visibility, parent)
        self.replies[visibility] = (reply["id"], text)
        shown, waited, page = self.page_until(lambda h: text in h)
        expect(shown, f"'{text}' not on {self.post_url} within {WAIT:.0f} s{self.diagnostics()}")
        return f"on the page after {waited:.2f} s"

    def replies_hidden(self):
        parent = self.need_post()
        before = self.inbox_total()
        texts = []
        for visibility in ("private", "direct"):
            text = f"{visibility.capitalize()} reply from GoToSocial {self.token}"
            self.say(self.alice, f"{self.blog_handle} {text}", visibility, parent)
            texts.append(text)
        received, waited = wait_until(lambda: self.inbox_total() >= before + 2, WAIT, 0.3)
        expect(received, f"the blog's inbox counted {self.inbox_total() - before} activities, not 2, "
                         f"within {WAIT:.0f} s: cannot tell hidden from undelivered{self.diagnostics()}")
        time.sleep(0.5)  # a re-render after the inbox counted it
        status, page = self.page(self.post_url)
        shown = [t for t in texts if t in page]
        expect(status == 200 and not shown, f"page {status}; shown though not public: {shown}")
        return f"both received after {waited:.2f} s, neither on the page"

    def edit(self):
        expect("public" in self.replies, "no public reply to edit (its step failed)")
        reply_id, old = self.replies["public"]
        new = f"Edited public reply from GoToSocial {self.token}"
        self.alice.call("PUT", f"/api/v1/statuses/{reply_id}", json={"status": f"{self.blog_handle} {new}"})
        self.replies["public"] = (reply_id, new)
        shown, waited, _ = self.page_until(lambda h: new in h and old not in h)
        expect(shown, f"the edit was not on the page within {WAIT:.0f} s{self.diagnostics()}")
        return f"edited text on the page after {waited:.2f} s"

    def delete(self):
        expect("public" in self.replies, "no public reply to delete (its step failed)")
        reply_id, text = self.replies.pop("public")
        self.alice.call("DELETE", f"/api/v1/statuses/{reply_id}")
        gone, waited, _ = self.page_until(lambda h: text not in h)
        expect(gone, f"the deleted reply was still on the page after {WAIT:.0f} s{self.diagnostics()}")
        return f"gone after {waited:.2f} s"

    def reactions(self):
        parent = self.need_post()
        self.alice.post(f"/api/v1/statuses/{parent}/favourite")
        self.alice.post(f"/api/v1/statuses/{parent}/reblog")
        counted, waited, page = self.page_until(
            lambda h: re.search(r'class="likes">★ 1<', h) and re.search(r'class="boosts">⟳ 1<', h))
        if not counted:
            found = re.findall(r'<p class="reactions">.*?</p>', page)
            raise Failure(f"the page shows {found or 'no reactions'} after {WAIT:.0f} s{self.diagnostics()}")
        return f"★ 1 and ⟳ 1 after {waited:.2f} s"

    def digest(self):
        since = time.monotonic()
        output = self.lectern("digest", "--now").strip()

        def arrived():
            for note in self.owner.notifications():
                status = note.get("status") or {}
                if (note.get("type") == "mention" and status.get("account", {}).get("acct") == f"blog@{self.blog.name}"
                        and "Answer this message" in strip_tags(status.get("content", ""))):
                    return status
            return None

        status, waited = wait_until(arrived, 10, 0.3)
        expect(status, f"no digest mention in owner's notifications within 10 s (`lectern digest --now`: "
                       f"{output.splitlines()[-1] if output else ''}){self.diagnostics()}")
        expect(status.get("visibility") == "direct", f"the digest is {status.get('visibility')}, not direct")
        self.digest_status = status
        return f"direct, after {time.monotonic() - since:.2f} s: {strip_tags(status['content'])[:160]!r}"

    def hide(self):
        expect(getattr(self, "digest_status", None), "no digest to answer (its step failed)")
        expect("unlisted" in self.replies, "no unlisted reply to hide (its step failed)")
        _, text = self.replies["unlisted"]
        paragraphs = re.findall(r"<p>(.*?)</p>", self.digest_status["content"], re.S)
        numbers = [m.group(1) for p in paragraphs if text in html.unescape(p) and (m := re.match(r"\s*(\d+)\.", p))]
        expect(numbers, f"the digest does not number '{text}': {strip_tags(self.digest_status['content'])[:400]}")
        self.say(self.owner, f"{self.blog_handle} hide {numbers[0]}", "direct", self.digest_status["id"])
        hidden, waited, _ = self.page_until(lambda h: text not in h)
        expect(hidden, f"'hide {numbers[0]}' did not hide '{text}' within {WAIT:.0f} s{self.diagnostics()}")
        answer, _ = wait_until(lambda: next((n for n in self.owner.notifications()
                                             if f"{numbers[0]}: hidden" in strip_tags((n.get("status") or {}).get("content", ""))),
                                            None), WAIT, 0.3)
        return (f"hidden after {waited:.2f} s; the blog's answer "
                f"{'arrived' if answer else 'did not arrive within 5 s'}")

    def follow_back(self):
        """GoToSocial makes accounts locked (`manually approve followers`) by default: the blog's
        Follow must show up as a request alice can see and authorize, and her Accept must make
        the follow `accepted` in the blog."""
        handle = f"@{self.alice.username}@{self.gts.name}"
        output = self.lectern("follow", handle).strip()
        pending = [f for f in self.blog.json("following") if self.alice.username in f.get("actor", "")]
        expect(pending and pending[0].get("state") in ("pending", "accepted"),
               f"`lectern following` after `lectern follow`: {pending} ({output})")
        requests_seen, waited = wait_until(
            lambda: [a for a in self.alice.get("/api/v1/follow_requests") if a.get("acct") == f"blog@{self.blog.name}"],
            WAIT, 0.3)
        expect(requests_seen, f"no follow request from the blog in alice's /api/v1/follow_requests within "
                              f"{WAIT:.0f} s (`lectern follow`: {output}){self.diagnostics()}")
        self.alice.post(f"/api/v1/follow_requests/{requests_seen[0]['id']}/authorize")

        def accepted():
            rows = [f for f in self.blog.json("following") if self.alice.username in f.get("actor", "")]
            return rows[0] if rows and rows[0].get("state") == "accepted" else None

        row, accepted_after = wait_until(accepted, WAIT, 0.3)
        if not row:
            rows = self.blog.json("following")
            raise Failure(f"`lectern following` {WAIT:.0f} s after alice authorized: {rows}{self.diagnostics()}")
        followed = self.alice.relationship(requests_seen[0]["id"]).get("followed_by")
        expect(followed, f"GoToSocial does not show alice followed by the blog: followed_by={followed}")
        self.followed_back = requests_seen[0]["id"]
        return f"request at alice after {waited:.2f} s; accepted in the blog {accepted_after:.2f} s after she authorized"

    def unfollow(self):
        expect(getattr(self, "followed_back", None), "the blog does not follow alice (the follow back step failed)")
        handle = f"@{self.alice.username}@{self.gts.name}"
        self.lectern("unfollow", handle)
        rows = [f for f in self.blog.json("following") if self.alice.username in f.get("actor", "")]
        expect(not rows, f"`lectern following` still lists {rows}")
        ended, waited = wait_until(lambda: not self.alice.relationship(self.followed_back).get("followed_by"), WAIT, 0.3)
        expect(ended, f"GoToSocial still shows alice followed by the blog after {WAIT:.0f} s{self.diagnostics()}")
        return f"GoToSocial saw the Undo after {waited:.2f} s"


def run_round(steps: Steps, blog: Lectern, gts: GoToSocial, ca_file: str, label: str, authorized_fetch: bool):
    """One whole story on a fresh blog site and a fresh copy of GoToSocial's database."""
    from common import log
    prefix = f"[authorizedFetch {'on' if authorized_fetch else 'off'}] "
    try:
        blog.create(label, authorized_fetch)
        blog.start()
        waited = gts.start(label)
        alice = gts.login("alice")
        owner = gts.login("owner")
        log(f"  {prefix}blog {blog.base} (lectern serve :{blog.port}), GoToSocial {gts.base} (:{gts.port}, "
            f"ready after {waited:.1f} s), users alice and owner signed in")
    except Exception as failure:  # Failure, or a network error: the round cannot run
        steps.fail(prefix + "setup", f"{type(failure).__name__}: {failure}")
        return
    story = Story(blog, gts, alice, owner, ca_file, label)
    for name, step in story.steps():
        steps.run(prefix + name, step)
