"""Interoperability with a real Takahē (Python/Django, PostgreSQL) and the real `lectern serve`,
both behind nginx with TLS as https://takahe.test and https://blog.test.

    TAKAHE_SRC=/path/to/takahe TAKAHE_VENV=/path/to/venv \\
        python3 -B Tests/RealServers/takahe.py [--lectern .build/debug/lectern] [--keep]

TAKAHE_SRC is a checkout of Takahē (tested with 0.11.0), TAKAHE_VENV a virtualenv with its
requirements.txt installed; PostgreSQL's server binaries (Debian's `postgresql`) and nginx must be
installed, and the run needs root (see takahe_support.py). Without TAKAHE_SRC it prints
`SKIP: TAKAHE_SRC not set` and exits 0.

Takahē is driven only the way its users drive it: the Mastodon client API with a token of its
own, its web server (gunicorn) and its background worker (`manage.py runstator`). The story: the
Takahē user finds and follows the blog and is accepted; a post the blog publishes reaches the
user's home timeline and the user's reply becomes a comment on the post's page; the user
unfollows, follows again and must be accepted again, the blog listing them at the end. Each step
prints PASS/FAIL with the seconds it took and, when it fails, the blog's log lines that explain
it. Exit status 1 if any step failed."""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree

from takahe_support import (  # noqa: E402
    Cleanup, Failure, LecternBlog, LocalCA, Nginx, Process, Skip, add_hosts, check_call, free_port,
    http_json, log, python_for, require_root, tail, wait_until)

TAKAHE_HOST = os.environ.get("TAKAHE_HOST", "takahe.test")
BLOG_HOST = os.environ.get("BLOG_HOST", "blog.test")
ADDRESS = os.environ.get("REALSERVERS_ADDRESS", "127.0.0.1")


# MARK: PostgreSQL

class Postgres:
    """A throwaway PostgreSQL cluster (Debian's server binaries) on a free loopback port, trusting
    local connections; run as the `postgres` user when we are root (PostgreSQL refuses root)."""

    def __init__(self, directory: Path):
        self.dir = directory
        self.port = free_port()
        self.process: Process | None = None
        self.bin = self._binaries()

    @staticmethod
    def _binaries() -> Path:
        override = os.environ.get("PG_BIN")
        if override:
            return Path(override)
        versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                          key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0)
        if not versions:
            raise Skip("no PostgreSQL server binaries (apt-get install postgresql, or set PG_BIN)")
        return versions[-1].parent

    def start(self, cleanup: Cleanup):
        data = self.dir / "data"
        data.mkdir(parents=True)
        user = "postgres" if os.geteuid() == 0 else None
        if user:
            # The temporary directories above are root's: postgres must reach and own its own.
            for parent in [self.dir, *self.dir.parents]:
                if parent == Path("/"):
                    break
                parent.chmod(parent.stat().st_mode | 0o711)
            shutil.chown(self.dir, user)
            shutil.chown(data, user)
        command = [str(self.bin / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "-E", "UTF8"]
        check_call((["runuser", "-u", user, "--"] if user else []) + command, timeout=120)
        self.process = Process("postgres", [str(self.bin / "postgres"), "-D", str(data), "-p", str(self.port),
                                            "-k", str(self.dir), "-c", "listen_addresses=127.0.0.1",
                                            "-c", "fsync=off", "-c", "synchronous_commit=off",
                                            "-c", "full_page_writes=off"],
                               self.dir / "postgres.log", user=user)
        cleanup.add("stop postgres", lambda: self.process.stop(grace=20))
        ready, _ = wait_until(lambda: self.sql("SELECT 1", database="postgres") == "1", 30, 0.2)
        self.process.check()
        if not ready:
            raise Failure(f"postgres did not accept connections within 30 s:\n{tail(self.dir / 'postgres.log')}")
        self.sql("CREATE DATABASE takahe", database="postgres")

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/takahe"

    def sql(self, query: str, database: str = "takahe") -> str:
        """One statement through psql; its rows as text, fields |-separated."""
        return check_call(["psql", "-X", "-q", "-A", "-t", "-h", "127.0.0.1", "-p", str(self.port),
                           "-U", "postgres", "-d", database, "-v", "ON_ERROR_STOP=1", "-c", query],
                          timeout=30).strip()


# MARK: Takahē

# Run inside `manage.py shell`: one local user with one identity and an API token for it,
# made with Takahē's own services (as its signup and "new identity" pages do).
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
    def __init__(self, source: Path, venv: Path, directory: Path, ca_bundle: Path):
        self.src = source
        self.python = python_for(venv)
        self.venv = venv
        self.dir = directory
        self.dir.mkdir(parents=True, exist_ok=True)
        self.postgres = Postgres(self.dir / "pg")
        self.port = free_port()
        self.base = f"https://{TAKAHE_HOST}"
        self.token = ""
        self.actor = ""
        (self.dir / "empty.env").write_text("")
        self.env = {
            **os.environ,
            "PATH": f"{venv / 'bin'}:{os.environ.get('PATH', '/usr/bin:/bin')}",
            "TAKAHE_ENV_FILE": str(self.dir / "empty.env"),  # not the checkout's .env
            "TAKAHE_DATABASE_SERVER": self.postgres.url,
            "TAKAHE_SECRET_KEY": secrets.token_hex(32),
            "TAKAHE_MAIN_DOMAIN": TAKAHE_HOST,
            "TAKAHE_MEDIA_BACKEND": "local://",
            "TAKAHE_MEDIA_ROOT": str(self.dir / "media"),
            "TAKAHE_MEDIA_URL": f"https://{TAKAHE_HOST}/media/",
            "TAKAHE_USE_PROXY_HEADERS": "true",
            # DEBUG serves static files without `collectstatic`; it changes nothing in federation.
            "TAKAHE_DEBUG": "true",
            "TAKAHE_EMAIL_SERVER": "console://console",
            "TAKAHE_ENVIRONMENT": "development",
            # httpx trusts certifi's bundle, not the system store: give it ours.
            "SSL_CERT_FILE": str(ca_bundle),
            "REQUESTS_CA_BUNDLE": str(ca_bundle),
            "PYTHONUNBUFFERED": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
        }

    def manage(self, *args: str, timeout: float = 300) -> str:
        return check_call([self.python, "manage.py", *args], timeout=timeout, env=self.env, cwd=self.src)

    def version(self) -> str:
        text = (self.src / "takahe" / "__init__.py").read_text()
        for line in text.splitlines():
            if line.startswith("__version__"):
                return line.split("=", 1)[1].strip().strip("\"'")
        return "unknown"

    def setup(self, cleanup: Cleanup, username: str):
        self.postgres.start(cleanup)
        self.manage("migrate", "--noinput")
        output = self.manage("shell", "-c",
                             f"DOMAIN = {TAKAHE_HOST!r}\nUSERNAME = {username!r}\n" + CREATE_ACCOUNT)
        line = next((l for l in output.splitlines() if l.startswith("ACCOUNT ")), None)
        if not line:
            raise Failure(f"creating the Takahē account printed no ACCOUNT line:\n{output[-2000:]}")
        account = json.loads(line[len("ACCOUNT "):])
        self.token, self.actor, self.identity_id = account["token"], account["actor"], account["id"]

    def start(self, cleanup: Cleanup):
        web = Process("takahe web (gunicorn)",
                      [self.python, "-m", "gunicorn", "takahe.wsgi:application", "--bind",
                       f"127.0.0.1:{self.port}", "--workers", "4", "--timeout", "60",
                       "--graceful-timeout", "5", "--access-logfile", "-"],
                      self.dir / "web.log", env=self.env, cwd=self.src)
        cleanup.add("stop takahe web", web.stop)
        stator = Process("takahe stator", [self.python, "manage.py", "runstator"],
                         self.dir / "stator.log", env=self.env, cwd=self.src)
        cleanup.add("stop takahe stator", stator.stop)
        self.processes = [web, stator]
        up, _ = wait_until(lambda: self.api("GET", "/api/v1/instance")[0] == 200, 60, 0.3)
        for process in self.processes:
            process.check()
        if not up:
            raise Failure(f"{self.base}/api/v1/instance did not answer 200 within 60 s:\n{tail(web.log_path)}")

    def check_alive(self):
        for process in self.processes:
            process.check()

    def api(self, method: str, path: str, body=None, timeout: float = 30):
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        return http_json(method, self.base + path, headers=headers, body=body, timeout=timeout)

    def follow_row(self, target_actor: str) -> tuple[str, str] | None:
        """(uri, state) of Takahē's Follow of `target_actor`, as its database has it."""
        row = self.postgres.sql(
            "SELECT f.uri || '|' || f.state FROM users_follow f JOIN users_identity t ON t.id = f.target_id "
            f"WHERE t.actor_uri = '{target_actor}' AND f.source_id = {int(self.identity_id)}")
        return tuple(row.split("|", 1)) if row else None


# MARK: the story

class Story:
    def __init__(self, takahe: Takahe, blog: LecternBlog):
        self.takahe = takahe
        self.blog = blog
        self.account_id = ""
        self.status_id = ""
        self.post_url = ""
        self.token = secrets.token_hex(4)
        self.follow_uris: list[str] = []
        self.results: list[tuple[str, str, float, str]] = []

    def steps(self):
        return [
            ("Takahē finds @blog@blog.test (search, resolve)", self.find_blog, True),
            ("Takahē follows the blog, is accepted, the blog lists it", self.follow, True),
            ("Takahē reads the blog's NodeInfo", self.nodeinfo, False),
            ("a post the blog publishes reaches the Takahē home timeline", self.post_reaches_timeline, False),
            ("a reply from Takahē becomes a comment on the post's page", self.reply_becomes_comment, False),
            ("Takahē unfollows, the blog forgets it", self.unfollow, True),
            ("Takahē follows again, is accepted again, the blog lists it", self.follow_again, True),
        ]

    # Each step returns a detail line or raises Failure.

    def find_blog(self) -> str:
        def found():
            status, body = self.takahe.api(
                "GET", "/api/v2/search?" + urllib.parse.urlencode(
                    {"q": f"@{self.blog.handle}", "resolve": "true", "type": "accounts"}))
            if status == 200:
                for account in body.get("accounts", []):
                    if account.get("acct") in (self.blog.handle, f"@{self.blog.handle}") or \
                            account.get("url", "").startswith(self.blog.base):
                        return account
            return None
        account, waited = wait_until(found, 30, 1)
        if not account:
            raise Failure(f"no account for @{self.blog.handle} in Takahē's search within {waited:.0f} s")
        self.account_id = account["id"]
        return f"account {self.account_id} ({account.get('acct')})"

    def _relationship(self) -> dict:
        status, body = self.takahe.api("GET", f"/api/v1/accounts/relationships?id[]={self.account_id}")
        if status != 200 or not body:
            raise Failure(f"relationships answered {status}: {body}")
        return body[0]

    def _wait_accepted(self, timeout: float) -> tuple[bool, bool, float]:
        """Waits until Takahē says `following` and the blog lists the Takahē actor; (accepted by
        Takahē, listed by the blog, seconds)."""
        def both():
            relationship = self._relationship()
            return relationship.get("following") and self.takahe.actor in self.blog.followers()
        done, waited = wait_until(both, timeout, 0.5)
        if done:
            return True, True, waited
        return bool(self._relationship().get("following")), self.takahe.actor in self.blog.followers(), waited

    def _follow(self) -> str:
        status, body = self.takahe.api("POST", f"/api/v1/accounts/{self.account_id}/follow", body={})
        if status != 200:
            raise Failure(f"POST /follow answered {status}: {body}")
        row, _ = wait_until(lambda: self.takahe.follow_row(self.blog.actor), 10, 0.2)
        uri = row[0] if row else "?"
        self.follow_uris.append(uri)
        return uri

    def _explain_follow(self, uri: str, since: int) -> str:
        lines = self.blog.log_lines(since, (uri, "Follow", "follow", "duplicate", "Accept"))
        state = self.takahe.follow_row(self.blog.actor)
        return (f"Takahē's Follow {uri} is {state[1] if state else 'gone'}; the blog's log since:\n"
                + ("\n".join("    " + line for line in lines[-15:]) or "    (nothing about it)"))

    def follow(self) -> str:
        since = self.blog.log_length()
        uri = self._follow()
        accepted, listed, waited = self._wait_accepted(30)
        if not (accepted and listed):
            raise Failure(f"after {waited:.0f} s: accepted by Takahē {accepted}, listed by the blog {listed}. "
                          + self._explain_follow(uri, since))
        return f"Follow {uri}"

    def nodeinfo(self) -> str:
        """Takahē reads a domain's NodeInfo when it first meets it (its Domain goes from
        `outdated` to `updated`), through the rel .../schema/2.0 link only, else /nodeinfo/2.0."""
        query = f"SELECT state || '|' || coalesce(nodeinfo::text, '') FROM users_domain WHERE domain = '{self.blog.host}'"
        row, waited = wait_until(lambda: (lambda r: r if r and r.split("|", 1)[0] != "outdated" else None)(
            self.takahe.postgres.sql(query)), 45, 0.5)
        if not row:
            raise Failure(f"Takahē did not update its record of {self.blog.host} within {waited:.0f} s")
        state, info = row.split("|", 1)
        requests = [line for line in self.blog.log_lines(0, ("nodeinfo",))]
        if not info:
            raise Failure(f"Takahē's domain record is '{state}' with no NodeInfo; it asked the blog for:\n"
                          + ("\n".join("    " + line for line in requests[-6:]) or "    (no nodeinfo request logged)"))
        software = json.loads(info).get("software", {})
        return f"{software.get('name')} {software.get('version')}"

    def post_reaches_timeline(self) -> str:
        if not self.account_id:
            raise Failure("no account for the blog (an earlier step failed)")
        title = f"Takahe interop {self.token}"
        posts = self.blog.root / "content" / "posts"
        posts.mkdir(parents=True, exist_ok=True)
        (posts / f"takahe-interop-{self.token}.md").write_text(
            f"---\ntitle: {title}\ndate: {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(time.time() - 60))}\n---\n\n"
            f"A post for Takahē ({self.token}).\n")
        since = self.blog.log_length()
        self.blog.run("publish", timeout=120)

        def on_timeline():
            status, body = self.takahe.api("GET", "/api/v1/timelines/home?limit=40")
            if status == 200:
                for item in body:
                    if self.token in (item.get("content") or "") + json.dumps(item.get("card") or {}) \
                            + (item.get("url") or "") + (item.get("spoiler_text") or ""):
                        return item
                    if item.get("account", {}).get("id") == self.account_id and title in json.dumps(item):
                        return item
            return None
        item, waited = wait_until(on_timeline, 45, 1)
        if not item:
            delivery = self.blog.log_lines(since, ("deliver", "Create", "inbox"))
            raise Failure(f"the post is not on the home timeline after {waited:.0f} s; the blog's log:\n"
                          + "\n".join("    " + line for line in delivery[-10:]))
        self.status_id = item["id"]
        self.post_url = item.get("url") or item.get("uri")
        return f"status {self.status_id} ({self.post_url}) after {waited:.1f} s"

    def reply_becomes_comment(self) -> str:
        if not self.status_id:
            raise Failure("no status to reply to (the previous step failed)")
        text = f"A reply from Takahē {self.token}"
        since = self.blog.log_length()
        status, body = self.takahe.api("POST", "/api/v1/statuses", body={
            "status": f"@{self.blog.handle} {text}", "in_reply_to_id": self.status_id, "visibility": "public"})
        if status != 200:
            raise Failure(f"POST /api/v1/statuses answered {status}: {body}")

        def comment():
            for entry in self.blog.comments():
                if entry.get("author", {}).get("id") == self.takahe.actor and self.token in entry.get("text", ""):
                    return entry
            return None
        entry, waited = wait_until(comment, 30, 0.5)
        if not entry:
            lines = self.blog.log_lines(since, ("inbox", "Create", "comment", "refused", "ignored"))
            raise Failure(f"no comment from {self.takahe.actor} after {waited:.0f} s; the blog's log:\n"
                          + "\n".join("    " + line for line in lines[-10:]))
        if entry.get("state") != "approved":
            raise Failure(f"the comment is {entry.get('state')}, not approved")
        from takahe_support import http
        shown, _ = wait_until(lambda: self.token in http("GET", self.post_url, timeout=10)[2], 10, 0.3)
        if not shown:
            raise Failure(f"comment {entry['id']} is stored but not on {self.post_url}")
        return f"comment {entry['id']} on {self.post_url} after {waited:.1f} s"

    def unfollow(self) -> str:
        since = self.blog.log_length()
        status, body = self.takahe.api("POST", f"/api/v1/accounts/{self.account_id}/unfollow", body={})
        if status != 200:
            raise Failure(f"POST /unfollow answered {status}: {body}")
        gone, waited = wait_until(lambda: self.takahe.actor not in self.blog.followers(), 30, 0.5)
        if not gone:
            lines = self.blog.log_lines(since, ("Undo", "undo", "inbox"))
            raise Failure(f"the blog still lists {self.takahe.actor} after {waited:.0f} s:\n"
                          + "\n".join("    " + line for line in lines[-10:]))
        state = self.takahe.follow_row(self.blog.actor)
        return f"after {waited:.1f} s; Takahē's Follow is now {state[1] if state else 'deleted'}"

    def follow_again(self) -> str:
        since = self.blog.log_length()
        uri = self._follow()
        reused = len(self.follow_uris) > 1 and uri == self.follow_uris[0]
        accepted, listed, waited = self._wait_accepted(30)
        note = "the same Follow id as the first" if reused else "a new Follow id"
        if not (accepted and listed):
            raise Failure(f"after {waited:.0f} s ({note}): accepted by Takahē {accepted}, listed by the blog "
                          f"{listed}. " + self._explain_follow(uri, since))
        return f"Follow {uri} ({note})"


def run(args) -> int:
    started = time.monotonic()
    source, venv = os.environ.get("TAKAHE_SRC"), os.environ.get("TAKAHE_VENV")
    if not source:
        log("SKIP: TAKAHE_SRC not set")
        return 0
    if not venv:
        log("SKIP: TAKAHE_VENV not set")
        return 0
    cleanup = Cleanup()
    tmp = Path(tempfile.mkdtemp(prefix="lectern-takahe-"))
    if not args.keep:
        cleanup.add("remove the run's directory", lambda: shutil.rmtree(tmp, ignore_errors=True))

    def on_signal(number, _frame):
        raise KeyboardInterrupt(f"signal {number}")
    signal.signal(signal.SIGTERM, on_signal)

    results: list[tuple[str, str, float, str]] = []
    try:
        require_root()
        if not (Path(source) / "manage.py").exists():
            raise Skip(f"TAKAHE_SRC={source} has no manage.py")
        ca = LocalCA(tmp / "ca")
        takahe = Takahe(Path(source), Path(venv), tmp / "takahe", ca.bundle)
        blog = LecternBlog(args.lectern, BLOG_HOST, tmp / "blog")
        log(f"takahe: Takahē {takahe.version()} ({source}) and Lectern ({args.lectern}), run in {tmp}")
        ca.trust(cleanup)
        add_hosts([TAKAHE_HOST, BLOG_HOST], ADDRESS, cleanup)
        nginx = Nginx(tmp / "nginx", ADDRESS)
        nginx.site(TAKAHE_HOST, takahe.port, *ca.issue(TAKAHE_HOST))
        nginx.site(BLOG_HOST, blog.port, *ca.issue(BLOG_HOST))
        nginx.start(cleanup)
        takahe.setup(cleanup, "tester")
        log(f"  takahe: database migrated, account {takahe.actor} ({time.monotonic() - started:.1f} s)")
        takahe.start(cleanup)
        log(f"  takahe: web and stator up at {takahe.base} ({time.monotonic() - started:.1f} s)")
        blog.create()
        blog.start(cleanup)
        log(f"  blog: lectern serve at {blog.base} ({time.monotonic() - started:.1f} s)")

        story = Story(takahe, blog)
        stopped = False
        for title, step, essential in story.steps():
            if stopped:
                results.append((title, "SKIP", 0.0, "an essential step before it failed"))
                log(f"  SKIP  {title}")
                continue
            step_start = time.monotonic()
            try:
                detail = step()
                outcome = "PASS"
            except Failure as failure:
                detail, outcome = str(failure), "FAIL"
                stopped = essential and step in (story.find_blog, story.follow)
            seconds = time.monotonic() - step_start
            results.append((title, outcome, seconds, detail))
            log(f"  {outcome}  {title} ({seconds:.1f} s): {detail}")
            takahe.check_alive()
    except Skip as skip:
        log(f"SKIP: {skip}")
        cleanup.run()
        return 0
    except (Failure, OSError, KeyboardInterrupt) as failure:
        log(f"takahe: FAIL: {failure}")
        results.append(("setup", "FAIL", 0.0, str(failure)))
    finally:
        if args.keep:
            log(f"  kept: {tmp}")
        cleanup.run()

    failed = [r for r in results if r[1] == "FAIL"]
    log(f"takahe: {sum(r[1] == 'PASS' for r in results)} passed, {len(failed)} failed, "
        f"{sum(r[1] == 'SKIP' for r in results)} skipped in {time.monotonic() - started:.1f} s")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lectern", default=str(HERE.parent.parent / ".build" / "debug" / "lectern"))
    parser.add_argument("--keep", action="store_true", help="keep the run's directory (logs, site, database)")
    return run(parser.parse_args())


if __name__ == "__main__":
    sys.exit(main())
