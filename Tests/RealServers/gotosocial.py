"""A real GoToSocial (the binary GOTOSOCIAL_BIN names) on loopback behind nginx as
`https://{name}`, its accounts made with its admin CLI, and its Mastodon client API.

GoToSocial has no password grant: a user token goes through the browser flow, driven here as a
browser would: `POST /api/v1/apps`, `GET /oauth/authorize` (→ `/auth/sign_in`), `POST
/auth/sign_in` (email and password), `POST /oauth/authorize` (the consent form) → the
out-of-band page with `?code=`, then `POST /oauth/token` (authorization_code)."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import time
from pathlib import Path
from urllib.parse import parse_qs, urljoin, urlparse

import requests

from common import Failure, Process, expect, free_port, tail, wait_until

OOB = "urn:ietf:wg:oauth:2.0:oob"


def web_folder(binary: str) -> Path | None:
    """GoToSocial serves its sign-in and consent pages from templates on disk (web/template):
    GOTOSOCIAL_WEB, else a `web` folder beside the binary or its `src/`."""
    candidates = [os.environ.get("GOTOSOCIAL_WEB", "")]
    here = Path(binary).resolve().parent
    candidates += [str(here / "web"), str(here / "src" / "web")]
    for candidate in candidates:
        if candidate and (Path(candidate) / "template").is_dir():
            return Path(candidate)
    return None


class GoToSocial:
    def __init__(self, binary: str, work: Path, name: str, ca_file: Path):
        self.binary = binary
        self.work = work
        self.name = name
        self.base = f"https://{name}"
        self.ca_file = ca_file
        self.port = free_port()
        self.config = work / "gotosocial.yml"
        self.template_db = work / "gts-template.sqlite"
        self.log_path = work / "gotosocial.log"
        self.process: Process | None = None
        self.passwords: dict[str, str] = {}
        self.web = web_folder(binary)
        expect(self.web is not None, f"no GoToSocial web/ folder (templates) beside {binary}; set GOTOSOCIAL_WEB")

    def env(self) -> dict:
        env = dict(os.environ)
        env["SSL_CERT_FILE"] = str(self.ca_file)  # Go's roots: the test CA only
        return env

    def write_config(self, db: Path, storage: Path):
        storage.mkdir(parents=True, exist_ok=True)
        self.config.write_text(f"""
log-level: "info"
log-client-ip: false
host: "{self.name}"
protocol: "https"
bind-address: "127.0.0.1"
port: {self.port}
trusted-proxies: ["127.0.0.1/32"]
db-type: "sqlite"
db-address: "{db}"
web-template-base-dir: "{self.web}/template/"
web-asset-base-dir: "{self.web}/assets/"
storage-backend: "local"
storage-local-base-path: "{storage}"
accounts-registration-open: false
instance-languages: ["en"]
instance-federation-spam-filter: false
letsencrypt-enabled: false
media-ffmpeg-pool-size: 1
cache:
  memory-target: "50MiB"
http-client:
  timeout: "10s"
  # The blog is at 127.0.0.1 (through /etc/hosts); GoToSocial refuses loopback otherwise.
  allow-ips: ["127.0.0.1/32"]
  # The certificate is checked against the test CA (SSL_CERT_FILE): no insecure-skip-verify.
  tls-insecure-skip-verify: false
advanced-rate-limit-requests: 0
advanced-throttling-multiplier: 0
""")

    def cli(self, *args: str, timeout: float = 120) -> str:
        command = [self.binary, "--config-path", str(self.config), *args]
        try:
            result = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                                    env=self.env(), stdin=subprocess.DEVNULL, cwd=self.work)
        except subprocess.TimeoutExpired:
            raise Failure(f"`gotosocial {' '.join(args[:3])}` did not finish within {timeout:.0f} s")
        expect(result.returncode == 0, f"`gotosocial {' '.join(args[:4])}` exited with {result.returncode}:\n"
                                       f"{(result.stdout + result.stderr)[-1500:]}")
        return result.stdout

    def make_template(self, usernames: list[str]) -> float:
        """A database with the accounts, made once; each round starts from a copy of it. The
        server must have run once (it creates its instance application, which `admin account
        create` needs), then the admin CLI adds the accounts with the server stopped. `create`
        marks the email verified and the account approved already (`confirm` would clear the
        email of such an account in v0.20). Returns the seconds it took."""
        started = time.monotonic()
        self.start("template", database=self.template_db)
        self.stop()
        self.write_config(self.template_db, self.work / "gts-template-storage")
        for username in usernames:
            password = f"Lectern-{secrets.token_urlsafe(12)}-Pw9!"
            self.cli("admin", "account", "create", "--username", username, "--email", f"{username}@{self.name}",
                     "--password", password)
            self.passwords[username] = password
        return time.monotonic() - started

    def start(self, label: str, database: Path | None = None) -> float:
        """The server on a copy of the template database (or on `database` itself); returns the
        seconds until /readyz answered on its loopback port."""
        db = database or self.work / f"gts-{label}.sqlite"
        if database is None:
            for suffix in ("", "-wal", "-shm"):
                source = Path(str(self.template_db) + suffix)
                if source.exists():
                    shutil.copy(source, str(db) + suffix)
        self.write_config(db, self.work / f"gts-storage-{label}")
        self.log_path = self.work / f"gotosocial-{label}.log"
        self.process = Process("gotosocial", [self.binary, "--config-path", str(self.config), "server", "start"],
                               self.log_path, env=self.env(), cwd=self.work)

        def ready():
            expect(self.process.alive(), f"gotosocial exited:\n{tail(self.log_path)}")
            try:
                response = requests.get(f"http://127.0.0.1:{self.port}/readyz", timeout=2)
                return response.status_code == 200
            except requests.RequestException:
                return False

        up, waited = wait_until(ready, 90, 0.25)
        expect(up, f"GoToSocial did not answer /readyz on :{self.port} within 90 s:\n{tail(self.log_path)}")
        return waited

    def stop(self):
        if self.process:
            self.process.stop()
            self.process = None

    def log_tail(self, lines: int = 15, grep: str | None = None) -> str:
        return tail(self.log_path, lines, grep)

    def login(self, username: str) -> "Client":
        """A user token with read and write, through GoToSocial's OAuth pages."""
        verify = str(self.ca_file)
        app = requests.post(self.base + "/api/v1/apps", timeout=10, verify=verify,
                            data={"client_name": "lectern-real-servers", "redirect_uris": OOB,
                                  "scopes": "read write"})
        expect(app.status_code == 200, f"POST /api/v1/apps answered {app.status_code}: {app.text[:300]}")
        app = app.json()
        browser = requests.Session()
        browser.verify = verify
        browser.headers["Accept"] = "text/html"
        query = {"client_id": app["client_id"], "redirect_uri": OOB, "response_type": "code", "scope": "read write"}
        response = browser.get(self.base + "/oauth/authorize", params=query, allow_redirects=False, timeout=10)
        expect(response.status_code in (302, 303) and "/auth/sign_in" in response.headers.get("Location", ""),
               f"GET /oauth/authorize answered {response.status_code} → {response.headers.get('Location')}")
        response = browser.post(self.base + "/auth/sign_in", allow_redirects=False, timeout=30,
                                data={"username": f"{username}@{self.name}", "password": self.passwords[username]})
        expect(response.status_code in (302, 303) and "/oauth/authorize" in response.headers.get("Location", ""),
               f"POST /auth/sign_in answered {response.status_code}: {response.text[:300]}")
        response = browser.post(self.base + "/oauth/authorize", allow_redirects=False, timeout=10)
        location = urljoin(self.base, response.headers.get("Location", ""))
        code = parse_qs(urlparse(location).query).get("code", [None])[0]
        expect(code, f"POST /oauth/authorize answered {response.status_code} → {location}: {response.text[:300]}")
        token = requests.post(self.base + "/oauth/token", timeout=10, verify=verify,
                              data={"grant_type": "authorization_code", "code": code, "client_id": app["client_id"],
                                    "client_secret": app["client_secret"], "redirect_uri": OOB})
        expect(token.status_code == 200, f"POST /oauth/token answered {token.status_code}: {token.text[:300]}")
        return Client(self.base, token.json()["access_token"], verify, username)


class Client:
    """One user's side of the Mastodon client API."""

    def __init__(self, base: str, token: str, verify: str, username: str):
        self.base = base
        self.username = username
        self.session = requests.Session()
        self.session.verify = verify
        self.session.headers["Authorization"] = f"Bearer {token}"

    def call(self, method: str, path: str, expected=(200,), **kwargs):
        response = self.session.request(method, self.base + path, timeout=30, **kwargs)
        expect(response.status_code in expected,
               f"{method} {path} answered {response.status_code}: {response.text[:400]}")
        return response.json() if response.text else None

    def get(self, path: str, **params):
        return self.call("GET", path, params=params)

    def post(self, path: str, expected=(200,), **data):
        return self.call("POST", path, expected=expected, json=data)

    def me(self) -> dict:
        return self.get("/api/v1/accounts/verify_credentials")

    def search_account(self, handle: str) -> tuple[dict | None, str]:
        """`/api/v2/search?resolve=true` for a handle; (account or None, what came back)."""
        response = self.session.get(self.base + "/api/v2/search", timeout=30,
                                    params={"q": handle, "resolve": "true", "type": "accounts"})
        if response.status_code != 200:
            return None, f"{response.status_code}: {response.text[:300]}"
        accounts = response.json().get("accounts", [])
        return (accounts[0] if accounts else None), f"200 with {len(accounts)} account(s)"

    def relationship(self, account_id: str) -> dict:
        answer = self.get("/api/v1/accounts/relationships", **{"id[]": account_id})
        return answer[0] if answer else {}

    def home(self) -> list[dict]:
        return self.get("/api/v1/timelines/home", limit=40)

    def notifications(self) -> list[dict]:
        return self.get("/api/v1/notifications", limit=40)


def describe_status(status: dict) -> str:
    content = status.get("content") or ""
    return (f"spoiler_text={status.get('spoiler_text')!r} sensitive={status.get('sensitive')} "
            f"language={status.get('language')!r} url={status.get('url')!r} "
            f"content={content[:160]!r}{'…' if len(content) > 160 else ''}")
