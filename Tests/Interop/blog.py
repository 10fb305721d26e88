"""The real `lectern serve`, in a temporary site, seen only from outside: its CLI, HTTP and a
read-only look at its SQLite database."""

from __future__ import annotations

import asyncio
import atexit
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import tempfile
import time
from pathlib import Path

import aiohttp


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Failure(Exception):
    """A step's expectation that did not hold (its message says what and why)."""


class Blog:
    def __init__(self, lectern: str, keep: bool = False):
        self.lectern = str(Path(lectern).resolve())
        if not os.access(self.lectern, os.X_OK):
            raise Failure(f"no Lectern binary at {self.lectern} (run `swift build --product lectern` first)")
        self.keep = keep
        self.tmp = Path(tempfile.mkdtemp(prefix="lectern-interop-"))
        # A copy: a rebuild while the test runs can neither fail its commands (ETXTBSY) nor
        # mix two versions of Lectern in one run.
        copy = self.tmp / "lectern"
        shutil.copy2(self.lectern, copy)
        self.source_binary, self.lectern = self.lectern, str(copy)
        self.root = self.tmp / "site"
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = self.tmp / "serve.log"
        self.process: subprocess.Popen | None = None
        self._log = None
        self._db: sqlite3.Connection | None = None
        self.session: aiohttp.ClientSession | None = None

    # MARK: addresses

    @property
    def actor(self) -> str:
        return self.base + "/actor"

    @property
    def shared_inbox(self) -> str:
        return self.base + "/inbox"

    @property
    def handle(self) -> str:
        return f"blog@127.0.0.1:{self.port}"

    # MARK: lifecycle

    async def create(self, owner_handle: str):
        """`lectern init`, then the settings the test needs in lectern.yml."""
        await self.run("init", str(self.root), site=False)
        config_file = self.root / "lectern.yml"
        text = config_file.read_text()
        for old, new in (("baseURL: http://127.0.0.1:8080", f"baseURL: {self.base}"),
                         ("  port: 8080", f"  port: {self.port}")):
            if old not in text:
                raise Failure(f"lectern init's lectern.yml has no line '{old}' to change")
            text = text.replace(old, new)
        text += (f'\nowner: "{owner_handle}"\n'
                 # The shortest interval Lectern accepts (it refuses less than a minute); the test
                 # sends the digest with `lectern digest --now` when the server has not yet.
                 "digest:\n  interval: 1m\n"
                 "federation:\n"
                 "  allowPrivateAddresses: true\n"
                 # Mastodon's secure mode: the Article JSON is only given to signed GETs, so
                 # bovine's GET signatures are verified by Lectern too.
                 "  authorizedFetch: true\n")
        config_file.write_text(text)

    async def start(self):
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            [self.lectern, "serve", "-s", str(self.root), "--host", "127.0.0.1", "--port", str(self.port),
             "--log-level", "info"],
            stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        atexit.register(self._kill)  # whatever happens to this process, the server does not outlive it
        self.session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=15))
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise Failure(f"lectern serve exited with {self.process.returncode}:\n{self.log_tail()}")
            try:
                async with self.session.get(self.base + "/") as response:
                    if response.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.1)
        raise Failure(f"lectern serve did not answer on {self.base} within 90 s:\n{self.log_tail()}")

    async def stop(self):
        if self.session:
            await self.session.close()
        if self._db:
            self._db.close()
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.get_running_loop().run_in_executor(None, self.process.wait, 10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self._log:
            self._log.close()
        if not self.keep:
            shutil.rmtree(self.tmp, ignore_errors=True)

    def _kill(self):
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        if not self.keep:
            shutil.rmtree(self.tmp, ignore_errors=True)

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return "(no log)"
        return "\n".join("    " + line for line in text[-lines:])

    async def run(self, *args: str, site: bool = True, timeout: float = 60) -> str:
        """A `lectern` command (not blocking the event loop: the peer must keep answering)."""
        command = [self.lectern, *args] + (["-s", str(self.root)] if site else [])
        process = await asyncio.create_subprocess_exec(*command, stdout=asyncio.subprocess.PIPE,
                                                       stderr=asyncio.subprocess.STDOUT,
                                                       stdin=asyncio.subprocess.DEVNULL)
        try:
            output, _ = await asyncio.wait_for(process.communicate(), timeout)
        except asyncio.TimeoutError:
            process.kill()
            await process.wait()
            raise Failure(f"`lectern {' '.join(args)}` did not finish within {timeout:.0f} s")
        except BaseException:  # cancelled (a step's time ran out): the command goes too
            if process.returncode is None:
                process.kill()
            raise
        text = output.decode(errors="replace")
        if process.returncode != 0:
            raise Failure(f"`lectern {' '.join(args)}` exited with {process.returncode}:\n{text}")
        return text

    # MARK: HTTP (unsigned: what a browser or anyone sees)

    async def get(self, path_or_url: str, accept: str = "text/html") -> tuple[int, str]:
        url = path_or_url if path_or_url.startswith("http") else self.base + path_or_url
        async with self.session.get(url, headers={"Accept": accept}, allow_redirects=False) as response:
            return response.status, await response.text()

    async def page_until(self, path: str, predicate, timeout: float) -> tuple[bool, float, str]:
        """Polls the page until `predicate(html)`; (held, seconds waited, last html)."""
        start = time.monotonic()
        html = ""
        while True:
            status, html = await self.get(path)
            if status == 200 and predicate(html):
                return True, time.monotonic() - start, html
            if time.monotonic() - start >= timeout:
                return False, time.monotonic() - start, html
            await asyncio.sleep(0.1)

    # MARK: the database, read-only

    def db(self) -> sqlite3.Connection:
        if self._db is None:
            path = self.root / "data" / "lectern.sqlite"
            self._db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5, isolation_level=None)
            self._db.row_factory = sqlite3.Row
        return self._db

    def query(self, sql: str, *args) -> list[sqlite3.Row]:
        return self.db().execute(sql, args).fetchall()

    def scalar(self, sql: str, *args):
        row = self.db().execute(sql, args).fetchone()
        return row[0] if row else None

    def forget_automatic_replies(self):
        """The one write the harness makes: the blog's record of automatic answers sent."""
        path = self.root / "data" / "lectern.sqlite"
        db = sqlite3.connect(str(path), timeout=5, isolation_level=None)
        try:
            db.execute("DELETE FROM automatic_replies")
        finally:
            db.close()

    def inbox_backlog(self) -> int:
        return self.scalar("SELECT COUNT(*) FROM inbox_queue")

    async def inbox_drained(self, timeout: float = 5) -> bool:
        """Waits until the inbox worker has applied everything queued (its outcomes are counted
        in the same transaction that clears the queue)."""
        deadline = time.monotonic() + timeout
        while self.inbox_backlog() > 0:
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(0.02)
        return True

    def comment(self, comment_id: str) -> sqlite3.Row | None:
        rows = self.query("SELECT * FROM comments WHERE id = ?", comment_id)
        return rows[0] if rows else None

    def is_follower(self, actor_id: str) -> bool:
        return bool(self.scalar("SELECT COUNT(*) FROM followers WHERE actor_id = ?", actor_id))

    def inbox_counts(self) -> dict[tuple[str, str], int]:
        return {(row[0], row[1]): row[2] for row in
                self.query("SELECT outcome, reason, SUM(count) FROM inbox_counts GROUP BY outcome, reason")}
