"""Interoperability with a real Takahē (Python/Django on PostgreSQL) and the real `lectern serve`,
both behind nginx with TLS as https://takahe.test and https://blog.test (common.py).

    TAKAHE_SRC=/path/to/takahe TAKAHE_VENV=/path/to/venv \\
        python3 -B Tests/RealServers takahe [--lectern .build/debug/lectern] [--mode off|on|both] [--keep]

--mode sets the
blog's `federation.authorizedFetch` (default: a round with it off, then one with it on; each
round a fresh blog site and a fresh copy of Takahē's template database).

Takahē 0.11.0 itself refuses every remote Article (its ArticleData model reads
`attributed_to` without the `attributedTo` alias: "ArticleData -> attributed_to field required"
in stator's log), so with an unchanged Takahē the timeline and reply steps fail on Takahē's side.

TAKAHE_SRC is a checkout of Takahē (tested with 0.11.0), TAKAHE_VENV a virtualenv with its
requirements.txt; PostgreSQL's server binaries (Debian's `postgresql`, or PG_BIN) and nginx must
be installed, and the run needs root (port 443, /etc/hosts, the CA store). Without TAKAHE_SRC it
prints `SKIP: TAKAHE_SRC not set` and exits 0.

Takahē is driven only as its users drive it: the Mastodon client API with a token of its own
account, its web server (gunicorn) and its background worker (`manage.py runstator`). The
story: the Takahē user finds and follows the blog and is accepted; Takahē reads the blog's
NodeInfo; a post the blog publishes reaches the user's home timeline and the user's reply
becomes a comment on the post's page; the user unfollows, follows again and must be accepted
again, the blog listing them at the end. Each step prints PASS/FAIL with its seconds and, when it
fails, the blog's log lines that explain it. Exit status 1 if any step failed."""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree

from common import (  # noqa: E402
    CA_BUNDLE, Failure, Lectern, Nginx, Process, Skip, Steps, expect, free_port, log, run_against, tail,
    wait_until)

TAKAHE_HOST = "takahe.test"
BLOG_HOST = "blog.test"
USERNAME = "tester"


def run_command(command: list[str], timeout: float = 120, env: dict | None = None, cwd=None) -> str:
    """A command run to its end (bounded): its output, or a Failure with it."""
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, timeout=timeout, env=env, cwd=cwd)
    except subprocess.TimeoutExpired:
        raise Failure(f"`{' '.join(command[:4])}…` did not finish within {timeout:.0f} s")
    text = done.stdout.decode(errors="replace")
    expect(done.returncode == 0, f"`{' '.join(command[:4])}…` exited with {done.returncode}:\n{text[-3000:]}")
    return text


def http(method: str, url: str, headers: dict | None = None, body=None, timeout: float = 20):
    """One request, TLS checked against the system store (where the test CA is); (status,
    parsed JSON or text). HTTP errors are answers, not exceptions."""
    headers = dict(headers or {})
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=timeout, context=ssl.create_default_context()) as response:
            status, text = response.status, response.read().decode(errors="replace")
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read().decode(errors="replace")
    try:
        return status, json.loads(text)
    except json.JSONDecodeError:
        return status, text


def lines_of(path: Path, since: int = 0, words: tuple[str, ...] = ()) -> list[str]:
    """A log's lines from line `since` on, those with any of `words` (all when none)."""
    try:
        lines = path.read_text(errors="replace").splitlines()[since:]
    except OSError:
        return []
    return [line[:400] for line in lines if not words or any(word in line for word in words)]


def indented(lines: list[str], empty: str = "(nothing)") -> str:
    return "\n".join("    " + line for line in lines) if lines else "    " + empty


# MARK: PostgreSQL

class Postgres:
    """A throwaway PostgreSQL cluster (Debian's server binaries) on a free loopback port that
    trusts local connections; run as the `postgres` user when we are root (it refuses root)."""

    def __init__(self, work: Path):
        self.work = work
        self.port = free_port()
        self.user = "postgres" if os.geteuid() == 0 else None
        self.process: Process | None = None
        override = os.environ.get("PG_BIN")
        found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                       key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0)
        if not override and not found:
            raise Skip("no PostgreSQL server binaries (apt-get install postgresql, or set PG_BIN)")
        self.bin = Path(override) if override else found[-1].parent

    def _as_user(self, command: list[str]) -> list[str]:
        return ["runuser", "-u", self.user, "--", *command] if self.user else command

    def start(self):
        data = self.work / "data"
        data.mkdir(parents=True)
        if self.user:
            # The run's folders are root's (0700): postgres must reach its own and own it.
            for folder in [self.work, *self.work.parents]:
                if folder == Path("/"):
                    break
                folder.chmod(folder.stat().st_mode | 0o711)
            shutil.chown(self.work, self.user)
            shutil.chown(data, self.user)
        run_command(self._as_user([str(self.bin / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres",
                                   "-E", "UTF8"]))
        self.process = Process("postgres", self._as_user(
            [str(self.bin / "postgres"), "-D", str(data), "-p", str(self.port), "-k", str(self.work),
             "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
             "-c", "full_page_writes=off"]), self.work / "postgres.log")

        def ready():
            expect(self.process.alive(), f"postgres exited:\n{tail(self.work / 'postgres.log')}")
            try:
                return self.sql("SELECT 1", "postgres") == "1"
            except Failure:
                return False
        up, _ = wait_until(ready, 30, 0.2)
        expect(up, f"postgres did not accept connections within 30 s:\n{tail(self.work / 'postgres.log')}")

    def stop(self):
        if self.process:
            self.process.stop(grace=20)

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def sql(self, query: str, database: str) -> str:
        """One statement through psql; its rows as text, fields |-separated."""
        return run_command(["psql", "-X", "-q", "-A", "-t", "-h", "127.0.0.1", "-p", str(self.port), "-U",
                            "postgres", "-d", database, "-v", "ON_ERROR_STOP=1", "-c", query], timeout=30).strip()


# MARK: Takahē

# Run by `manage.py shell`: one local user with one identity and an API token for it, made with
# Takahē's own services (as its signup and "new identity" pages do; a token as its OAuth flow
# would issue, without a browser).
CREATE_ACCOUNT = """
import json, secrets
from api.models import Application, Token
from users.models import Domain, User
from users.services import IdentityService
domain, _ = Domain.objects.get_or_create(domain=DOMAIN, defaults=dict(local=True, public=True))
user = User.objects.create_user(email=USERNAME + "@" + DOMAIN, password=secrets.token_hex(16))
identity = IdentityService.create(user=user, username=USERNAME, domain=domain, name="Takahe Tester")
app = Application.create(client_name="lectern-interop", redirect_uris="urn:ietf:wg:oauth:2.0:oob",
                         website=None, scopes="read write follow")
token = Token.objects.create(application=app, user=user, identity=identity,
                             token=secrets.token_urlsafe(32), scopes=["read", "write", "follow"])
print("ACCOUNT " + json.dumps({"token": token.token, "actor": identity.actor_uri, "id": str(identity.pk)}))
"""


class Takahe:
    """Takahē from a source folder and a venv at https://{name} (behind nginx): PostgreSQL, a
    template database made once (`manage.py migrate`, one account), and for each round a copy
    of it served by gunicorn and worked on by `manage.py runstator`."""

    TEMPLATE = "takahe_template"

    def __init__(self, source: Path, venv: Path, work: Path, name: str, ca_file: Path):
        expect((source / "manage.py").exists(), f"TAKAHE_SRC={source} has no manage.py")
        self.python = venv / "bin" / "python"
        if not self.python.exists():
            raise Skip(f"TAKAHE_VENV={venv} has no bin/python")
        self.src = source
        self.work = work
        work.mkdir(parents=True, exist_ok=True)
        self.name = name
        self.base = f"https://{name}"
        self.port = free_port()
        self.postgres = Postgres(work / "pg")
        self.processes: list[Process] = []
        self.token = self.actor = self.identity_id = ""
        self.database = self.TEMPLATE
        self.round_work = work
        (work / "empty.env").write_text("")
        self.env = {
            **os.environ,
            "PATH": f"{venv / 'bin'}:{os.environ.get('PATH', '/usr/bin:/bin')}",
            "TAKAHE_ENV_FILE": str(work / "empty.env"),  # not a .env of the checkout
            "TAKAHE_SECRET_KEY": secrets.token_hex(32),
            "TAKAHE_MAIN_DOMAIN": name,
            "TAKAHE_MEDIA_BACKEND": "local://",
            "TAKAHE_MEDIA_ROOT": str(work / "media"),
            "TAKAHE_MEDIA_URL": f"https://{name}/media/",
            "TAKAHE_USE_PROXY_HEADERS": "true",
            # Serves /static/ without `collectstatic`; nothing in federation depends on it.
            "TAKAHE_DEBUG": "true",
            "TAKAHE_EMAIL_SERVER": "console://console",
            # httpx trusts certifi's roots unless told: the system store, with the test CA.
            "SSL_CERT_FILE": str(ca_file),
            "REQUESTS_CA_BUNDLE": str(ca_file),
            "PYTHONUNBUFFERED": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
        }

    def version(self) -> str:
        for line in (self.src / "takahe" / "__init__.py").read_text().splitlines():
            if line.startswith("__version__"):
                return line.split("=", 1)[1].strip().strip("\"'")
        return "unknown"

    def round_env(self) -> dict:
        return {**self.env, "TAKAHE_DATABASE_SERVER": self.postgres.url(self.database),
                "TAKAHE_MEDIA_ROOT": str(self.round_work / "media")}

    def manage(self, *args: str, timeout: float = 300) -> str:
        return run_command([str(self.python), "manage.py", *args], timeout=timeout, env=self.round_env(),
                           cwd=self.src)

    def sql(self, query: str) -> str:
        return self.postgres.sql(query, self.database)

    def make_template(self):
        """The template database: Takahē's schema and the account (made once)."""
        self.postgres.start()
        self.postgres.sql(f"CREATE DATABASE {self.TEMPLATE}", "postgres")
        self.manage("migrate", "--noinput")
        output = self.manage("shell", "-c", f"DOMAIN = {self.name!r}\nUSERNAME = {USERNAME!r}\n" + CREATE_ACCOUNT)
        line = next((line for line in output.splitlines() if line.startswith("ACCOUNT ")), None)
        expect(line, f"creating the Takahē account printed no ACCOUNT line:\n{output[-2000:]}")
        account = json.loads(line[len("ACCOUNT "):])
        self.token, self.actor, self.identity_id = account["token"], account["actor"], account["id"]

    def start(self, label: str) -> float:
        """A copy of the template database for this round, gunicorn and stator on it."""
        started = time.monotonic()
        self.database = f"takahe_{label}"
        self.round_work = self.work / label
        self.round_work.mkdir()
        self.postgres.sql(f"CREATE DATABASE {self.database} TEMPLATE {self.TEMPLATE}", "postgres")
        env = self.round_env()
        self.processes = []
        self.processes.append(Process("takahe web (gunicorn)", [
            str(self.python), "-m", "gunicorn", "takahe.wsgi:application", "--bind", f"127.0.0.1:{self.port}",
            # Several workers: a search blocks one while it fetches the blog, whose fetch of
            # Takahē's actor to check the signature needs another.
            "--workers", "4", "--timeout", "60", "--graceful-timeout", "5", "--access-logfile", "-"],
            self.round_work / "web.log", env=env, cwd=self.src))
        self.processes.append(Process("takahe stator", [str(self.python), "manage.py", "runstator"],
                                      self.round_work / "stator.log", env=env, cwd=self.src))
        up, _ = wait_until(lambda: self.check_alive() or self.api("GET", "/api/v1/instance")[0] == 200, 60, 0.3)
        expect(up, f"{self.base}/api/v1/instance did not answer 200 within 60 s:\n"
               f"{tail(self.round_work / 'web.log')}")
        return time.monotonic() - started

    def errors(self, since: int = 0) -> str:
        """Stator's ERROR lines and the exception line of each (what it could not process)."""
        lines = lines_of(self.round_work / "stator.log", since)
        picked = [line for line in lines if " ERROR " in line or " -> " in line or "field required" in line
                  or line.startswith(("pydantic.", "ValueError", "KeyError"))]
        return indented(picked[-8:], "(none)")

    def check_alive(self):
        for process in self.processes:
            expect(process.alive(), f"{process.name} exited:\n{tail(process.log_path)}")

    def stop_round(self):
        for process in reversed(self.processes):
            process.stop()
        self.processes = []

    def stop(self):
        self.stop_round()
        self.postgres.stop()

    def api(self, method: str, path: str, body=None, timeout: float = 30):
        try:
            return http(method, self.base + path, body=body, timeout=timeout,
                        headers={"Authorization": f"Bearer {self.token}", "Accept": "application/json"})
        except OSError as error:  # refused or timed out: an answer the caller waits past
            return 0, str(error)

    def follow_row(self, target_actor: str) -> tuple[str, str] | None:
        """(uri, state) of Takahē's Follow of `target_actor`, as its database has it."""
        row = self.sql(
            "SELECT f.uri || '|' || f.state FROM users_follow f JOIN users_identity t ON t.id = f.target_id "
            f"WHERE t.actor_uri = '{target_actor}' AND f.source_id = {int(self.identity_id)}")
        return tuple(row.split("|", 1)) if row else None


# MARK: the story

class Story:
    def __init__(self, takahe: Takahe, blog: Lectern):
        self.takahe = takahe
        self.blog = blog
        self.handle = f"blog@{blog.name}"
        self.token = secrets.token_hex(4)
        self.account_id = self.status_id = self.post_url = ""
        self.follow_uris: list[str] = []

    def steps(self):
        """(title, step, whether the later steps need it)."""
        return [
            (f"Takahē finds @{self.handle} (search, resolve)", self.find_blog, True),
            ("Takahē follows the blog, is accepted, the blog lists it", self.follow, True),
            ("Takahē reads the blog's NodeInfo", self.nodeinfo, False),
            ("a post the blog publishes reaches the Takahē home timeline", self.post_reaches_timeline, False),
            ("a reply from Takahē becomes a comment on the post's page", self.reply_becomes_comment, False),
            ("Takahē unfollows, the blog forgets it", self.unfollow, True),
            ("Takahē follows again, is accepted again, the blog lists it", self.follow_again, True),
        ]

    # Helpers

    def log_length(self) -> int:
        return len(lines_of(self.blog.log_path))

    def blog_log(self, since: int, *words: str, last: int = 12) -> str:
        return indented(lines_of(self.blog.log_path, since, words)[-last:], "(nothing about it in the blog's log)")

    def followers(self) -> list[str]:
        return [entry.get("actor") for entry in self.blog.json("followers", "list")]

    def relationship(self) -> dict:
        status, body = self.takahe.api("GET", f"/api/v1/accounts/relationships?id[]={self.account_id}")
        expect(status == 200 and body, f"relationships answered {status}: {body}")
        return body[0]

    def wait_accepted(self, timeout: float) -> tuple[bool, bool, float]:
        """Until Takahē says `following` and the blog lists Takahē's actor; (Takahē says
        following, the blog lists it, seconds)."""
        done, waited = wait_until(
            lambda: self.relationship().get("following") and self.takahe.actor in self.followers(), timeout, 0.5)
        if done:
            return True, True, waited
        return bool(self.relationship().get("following")), self.takahe.actor in self.followers(), waited

    def send_follow(self) -> str:
        status, body = self.takahe.api("POST", f"/api/v1/accounts/{self.account_id}/follow", body={})
        expect(status == 200, f"POST /api/v1/accounts/{self.account_id}/follow answered {status}: {body}")
        row, _ = wait_until(lambda: self.takahe.follow_row(self.blog.actor), 10, 0.2)
        uri = row[0] if row else "?"
        self.follow_uris.append(uri)
        return uri

    def follow_failure(self, uri: str, since: int, accepted: bool, listed: bool, waited: float, note: str = "") -> Failure:
        state = self.takahe.follow_row(self.blog.actor)
        return Failure(f"after {waited:.0f} s{note}: Takahē says following: {accepted}; the blog lists it: {listed}; "
                       f"Takahē's Follow {uri} is {state[1] if state else 'gone'}. The blog's log since:\n"
                       + self.blog_log(since, uri, "Follow", "duplicate", "Accept"))

    # Steps: each returns a detail line or raises Failure.

    def find_blog(self) -> str:
        def found():
            status, body = self.takahe.api("GET", "/api/v2/search?" + urllib.parse.urlencode(
                {"q": f"@{self.handle}", "resolve": "true", "type": "accounts"}))
            if status != 200:
                return None
            return next((account for account in body.get("accounts", [])
                         if account.get("acct") == self.handle), None)
        account, waited = wait_until(found, 30, 1)
        expect(account, f"no account @{self.handle} in Takahē's search within {waited:.0f} s; the blog's log:\n"
               + self.blog_log(0, "webfinger", "/actor"))
        self.account_id = account["id"]
        return f"account {self.account_id} ({account.get('acct')}, {account.get('url')})"

    def follow(self) -> str:
        since = self.log_length()
        uri = self.send_follow()
        accepted, listed, waited = self.wait_accepted(30)
        if not (accepted and listed):
            raise self.follow_failure(uri, since, accepted, listed, waited)
        return f"Follow {uri} accepted after {waited:.1f} s"

    def nodeinfo(self) -> str:
        """Takahē reads a domain's NodeInfo when it first meets it (stator moves the Domain from
        `outdated` to `updated`): the `…/ns/schema/2.0` link of /.well-known/nodeinfo, else
        /nodeinfo/2.0; it keeps only a document whose version is "2.0". The requests are read
        from the blog's access log (nginx's does not say which host: Takahē also reads its own)."""
        def requests():
            return [line.split("] ", 1)[-1] for line in lines_of(self.blog.log_path, 0, ("component=access",))
                    if "nodeinfo" in line]

        def document_asked():  # the well-known links, then a NodeInfo document
            asked = requests()
            return asked if any("/nodeinfo/" in line for line in asked) else None
        asked, _ = wait_until(document_asked, 30, 0.5)
        asked = asked or requests()
        query = f"SELECT state || '|' || coalesce(nodeinfo::text, '') FROM users_domain WHERE domain = '{self.blog.name}'"
        row, _ = wait_until(lambda: (lambda r: r if r and r.split("|", 1)[1] else None)(self.takahe.sql(query)),
                            5, 0.5)
        row = row or self.takahe.sql(query)
        state, info = row.split("|", 1) if row else ("absent", "")
        asked_text = indented(asked[-4:], "(the blog logged no NodeInfo request)")
        expect(info, f"Takahē's record of {self.blog.name} is '{state}', without NodeInfo; the blog answered:\n"
               + asked_text)
        software = json.loads(info).get("software", {})
        return f"{software.get('name')} {software.get('version')} (Domain '{state}'); the blog answered:\n{asked_text}"

    def post_reaches_timeline(self) -> str:
        title = f"Takahe interop {self.token}"
        _, self.post_url = self.blog.write_post(title, f"takahe-interop-{self.token}",
                                                f"A post for Takahē to read ({self.token}).")
        since = self.log_length()
        stator_since = len(lines_of(self.takahe.round_work / "stator.log"))
        self.blog.run("publish", timeout=120)

        def on_timeline():
            status, body = self.takahe.api("GET", "/api/v1/timelines/home?limit=40")
            if status != 200:
                return None
            return next((item for item in body if item.get("account", {}).get("id") == self.account_id
                         and self.token in json.dumps(item)), None)
        item, waited = wait_until(on_timeline, 45, 1)
        expect(item, f"the post is not on the home timeline after {waited:.0f} s; the blog's log:\n"
               + self.blog_log(since, "deliver", "Create", self.takahe.name) + "\nTakahē's errors:\n"
               + self.takahe.errors(stator_since))
        self.status_id = item["id"]
        return f"status {self.status_id} ({item.get('url')}) after {waited:.1f} s"

    def reply_becomes_comment(self) -> str:
        expect(self.status_id, "no status to reply to (the previous step failed)")
        since = self.log_length()
        status, body = self.takahe.api("POST", "/api/v1/statuses", body={
            "status": f"@{self.handle} A reply from Takahē {self.token}",
            "in_reply_to_id": self.status_id, "visibility": "public"})
        expect(status == 200, f"POST /api/v1/statuses answered {status}: {body}")

        def comment():
            return next((entry for entry in self.blog.json("comments", "list")
                         if entry.get("author", {}).get("id") == self.takahe.actor
                         and self.token in entry.get("text", "")), None)
        entry, waited = wait_until(comment, 30, 0.5)
        expect(entry, f"no comment from {self.takahe.actor} after {waited:.0f} s; the blog's log:\n"
               + self.blog_log(since, "inbox", "Create", "comment", "refused", "ignored"))
        expect(entry.get("state") == "approved", f"the comment is {entry.get('state')}, not approved")
        shown, _ = wait_until(lambda: self.token in str(http("GET", self.post_url, timeout=10)[1]), 10, 0.3)
        expect(shown, f"comment {entry['id']} is stored but not on {self.post_url}")
        return f"comment {entry['id']} on {self.post_url} after {waited:.1f} s"

    def unfollow(self) -> str:
        since = self.log_length()
        status, body = self.takahe.api("POST", f"/api/v1/accounts/{self.account_id}/unfollow", body={})
        expect(status == 200, f"POST /unfollow answered {status}: {body}")
        gone, waited = wait_until(lambda: self.takahe.actor not in self.followers(), 30, 0.5)
        expect(gone, f"the blog still lists {self.takahe.actor} after {waited:.0f} s; its log:\n"
               + self.blog_log(since, "Undo", "inbox"))
        state = self.takahe.follow_row(self.blog.actor)
        return f"after {waited:.1f} s; Takahē's Follow is now {state[1] if state else 'deleted'}"

    def follow_again(self) -> str:
        since = self.log_length()
        uri = self.send_follow()
        # Takahē keeps an undone Follow row until stator deletes it (every 30 s): following
        # again before then sends the same Follow id again.
        note = " (the same Follow id as the first)" if uri == self.follow_uris[0] else " (a new Follow id)"
        accepted, listed, waited = self.wait_accepted(30)
        if not (accepted and listed):
            raise self.follow_failure(uri, since, accepted, listed, waited, note)
        accepts = [found.group(1) for line in lines_of(self.blog.log_path, 0, ("#accepts/follows/",))
                   if (found := re.search(r"delivery (\S+#accepts/follows/\S+)", line))]
        return f"Follow {uri}{note} accepted after {waited:.1f} s; the blog's Accepts: {', '.join(accepts)}"


# MARK: running

def names_in_place(names: list[str]):
    """Between steps: another run starting meanwhile would have taken our names out."""
    for name in names:
        try:
            address = socket.gethostbyname(name)
        except OSError:
            address = None
        expect(address == "127.0.0.1", f"{name} no longer resolves to 127.0.0.1 (another real-server run "
                                       "changed /etc/hosts?)")


def run_round(steps: Steps, takahe: Takahe, blog: Lectern, authorized_fetch: bool):
    """The whole story on a fresh blog site and a fresh copy of Takahē's database."""
    prefix = f"[authorizedFetch {'on' if authorized_fetch else 'off'}] "
    label = "authorized" if authorized_fetch else "plain"
    try:
        blog.create(label, authorized_fetch)
        blog.start()
        up, _ = wait_until(lambda: http("GET", blog.base + "/", timeout=5)[0] == 200, 30, 0.3)
        expect(up, f"{blog.base}/ did not answer 200 within 30 s:\n{blog.log_tail()}")
        waited = takahe.start(label)
        names_in_place([TAKAHE_HOST, BLOG_HOST])
        log(f"  {prefix}blog {blog.base} (lectern serve :{blog.port}), Takahē {takahe.base} (gunicorn "
            f":{takahe.port} and stator, ready after {waited:.1f} s), user {takahe.actor}")
    except (Failure, OSError) as failure:
        steps.fail(prefix + "setup", f"{type(failure).__name__}: {failure}")
        return
    story = Story(takahe, blog)
    needed_failed = False
    for title, step, needed in story.steps():
        if needed_failed:
            steps.rows.append((prefix + title, "SKIP", 0.0, "a step it needs failed"))
            log(f"SKIP {prefix}{title}")
            continue
        if not steps.run(prefix + title, step):
            needed_failed = needed
        try:
            takahe.check_alive()
            names_in_place([TAKAHE_HOST, BLOG_HOST])
        except Failure as failure:
            steps.fail(prefix + "servers", str(failure))
            return


def takahe(args) -> int:
    """`python3 -B Tests/RealServers takahe` (args: lectern, mode off|on|both, keep)."""
    source, venv = os.environ.get("TAKAHE_SRC"), os.environ.get("TAKAHE_VENV")
    for name, value in (("TAKAHE_SRC", source), ("TAKAHE_VENV", venv)):
        if not value:
            log(f"SKIP: {name} not set")
            return 0
    if os.geteuid() != 0:
        log("SKIP: needs root (nginx on 127.0.0.1:443, /etc/hosts, the CA store)")
        return 0

    def setup(work, machine, parts):
        server = Takahe(Path(source), Path(venv), work / "takahe", TAKAHE_HOST, CA_BUNDLE)
        servers["takahe"] = server
        parts.append(server)
        log(f"real servers: Lectern ({args.lectern}) with Takahē ({source}, __version__ {server.version()}); "
            f"work folder {work}")
        servers["blog"] = Lectern(args.lectern, work, BLOG_HOST, owner=f"@{USERNAME}@{TAKAHE_HOST}")
        parts.append(servers["blog"])
        nginx = Nginx(work, machine, {BLOG_HOST: servers["blog"].port, TAKAHE_HOST: server.port})
        parts.append(nginx)
        nginx.start()
        started = time.monotonic()
        server.make_template()
        log(f"  Takahē's template database: schema and {server.actor} ({time.monotonic() - started:.1f} s)")

    def one_round(steps, authorized_fetch):
        try:
            run_round(steps, servers["takahe"], servers["blog"], authorized_fetch)
        finally:
            servers["blog"].stop()
            servers["takahe"].stop_round()

    servers: dict = {}
    return run_against(args, [BLOG_HOST, TAKAHE_HOST], setup, one_round)
