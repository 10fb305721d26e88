"""What a test against a real fediverse server needs around it, whichever server it is: a local
certificate authority trusted system-wide, names in /etc/hosts, nginx terminating TLS in front
of each server, and the real `lectern serve` as `https://blog.test`.

Real servers only talk to https:// peers on their default port, so both ends sit behind one nginx
on 127.0.0.1:443 with certificates from a CA made for the run. Everything this changes outside its
temporary directory (the CA in the system store, /etc/hosts) is undone by `Cleanup`, also when
the run fails. Needs root (port 443, /etc/hosts, update-ca-certificates), openssl and nginx.
Standard library only."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import sqlite3
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path


class Failure(Exception):
    """A step's expectation that did not hold (its message says what and why)."""


class Skip(Exception):
    """The run cannot happen on this machine (its message says why)."""


def log(line: str):
    try:
        print(line, flush=True)
    except OSError:  # a closed pipe (`| head`) must not stop the cleanup
        pass


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(predicate, timeout: float, interval: float = 0.25):
    """Polls `predicate()` until it returns something true; (value, seconds waited). Exceptions
    from the predicate count as not yet (the server may still be starting)."""
    start = time.monotonic()
    value = None
    while True:
        try:
            value = predicate()
        except (OSError, Failure, ValueError):
            value = None
        if value:
            return value, time.monotonic() - start
        if time.monotonic() - start >= timeout:
            return value, time.monotonic() - start
        time.sleep(interval)


def check_call(command: list[str], timeout: float = 120, env: dict | None = None, cwd=None) -> str:
    """Runs a command to its end (bounded); its output, or a Failure with it."""
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, timeout=timeout, env=env, cwd=cwd)
    except subprocess.TimeoutExpired:
        raise Failure(f"`{' '.join(command)}` did not finish within {timeout:.0f} s")
    text = done.stdout.decode(errors="replace")
    if done.returncode != 0:
        raise Failure(f"`{' '.join(command)}` exited with {done.returncode}:\n{text[-3000:]}")
    return text


def tail(path: Path, lines: int = 30) -> str:
    try:
        text = path.read_text(errors="replace").splitlines()
    except OSError:
        return "    (no log)"
    return "\n".join("    " + line for line in text[-lines:])


class Cleanup:
    """Undo actions, run last-in first-out exactly once (also from SIGTERM/SIGINT)."""

    def __init__(self):
        self.actions: list[tuple[str, object]] = []

    def add(self, name: str, action):
        self.actions.append((name, action))

    def run(self):
        while self.actions:
            name, action = self.actions.pop()
            try:
                action()
            except Exception as error:  # one failed undo must not skip the others
                log(f"  cleanup: {name}: {error}")


class Process:
    """A long-running child in its own process group, its output in a log file; stopped with
    SIGTERM then SIGKILL after `grace` seconds, whole group."""

    def __init__(self, name: str, command: list[str], log_path: Path, env: dict | None = None,
                 cwd=None, user: str | None = None):
        self.name = name
        self.log_path = log_path
        if user and os.geteuid() == 0:
            command = ["runuser", "-u", user, "--", *command]
        self._log = open(log_path, "ab")
        self.popen = subprocess.Popen(command, stdout=self._log, stderr=subprocess.STDOUT,
                                      stdin=subprocess.DEVNULL, env=env, cwd=cwd,
                                      start_new_session=True)

    def alive(self) -> bool:
        return self.popen.poll() is None

    def check(self):
        if not self.alive():
            raise Failure(f"{self.name} exited with {self.popen.returncode}:\n{tail(self.log_path)}")

    def stop(self, grace: float = 10):
        if self.alive():
            try:
                os.killpg(self.popen.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.popen.wait(grace)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(self.popen.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.popen.wait(5)
        self._log.close()


# MARK: TLS

SYSTEM_CA_DIR = Path("/usr/local/share/ca-certificates")
SYSTEM_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")


class LocalCA:
    """A certificate authority made for one run; `trust()` puts it in the system store (what
    libcurl in Lectern and OpenSSL in Python read) and writes a bundle file for programs that
    bring their own (httpx's certifi: SSL_CERT_FILE / REQUESTS_CA_BUNDLE)."""

    def __init__(self, directory: Path, name: str = "lectern-realservers"):
        self.dir = directory
        self.dir.mkdir(parents=True, exist_ok=True)
        self.name = name
        self.key = self.dir / "ca.key"
        self.cert = self.dir / "ca.crt"
        self.bundle = self.dir / "bundle.crt"
        check_call(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", f"/CN={name} test CA", "-keyout", str(self.key), "-out", str(self.cert),
                    "-addext", "basicConstraints=critical,CA:TRUE",
                    "-addext", "keyUsage=critical,keyCertSign,cRLSign"])

    def issue(self, host: str) -> tuple[Path, Path]:
        """A server certificate for `host`; (certificate, key)."""
        key, csr, cert = (self.dir / f"{host}.{ext}" for ext in ("key", "csr", "crt"))
        extensions = self.dir / f"{host}.ext"
        extensions.write_text(f"subjectAltName=DNS:{host}\nextendedKeyUsage=serverAuth\n"
                              "basicConstraints=CA:FALSE\n")
        check_call(["openssl", "req", "-newkey", "rsa:2048", "-nodes", "-subj", f"/CN={host}",
                    "-keyout", str(key), "-out", str(csr)])
        check_call(["openssl", "x509", "-req", "-in", str(csr), "-CA", str(self.cert),
                    "-CAkey", str(self.key), "-CAcreateserial", "-days", "2",
                    "-extfile", str(extensions), "-out", str(cert)])
        return cert, key

    def trust(self, cleanup: Cleanup):
        installed = SYSTEM_CA_DIR / f"{self.name}-{os.getpid()}.crt"
        shutil.copy(self.cert, installed)

        def untrust():
            installed.unlink(missing_ok=True)
            check_call(["update-ca-certificates", "--fresh"], timeout=120)
        cleanup.add("remove the test CA from the system store", untrust)
        check_call(["update-ca-certificates"], timeout=120)
        self.bundle.write_bytes(SYSTEM_BUNDLE.read_bytes() + b"\n" + self.cert.read_bytes())


# MARK: names

HOSTS = Path("/etc/hosts")


def add_hosts(names: list[str], address: str, cleanup: Cleanup):
    """Maps `names` to `address` in /etc/hosts, tagged so that only these lines are taken out
    again (another run may add its own meanwhile)."""
    tag = f"# lectern-realservers {os.getpid()}"
    lines = [f"{address} {name} {tag}" for name in names]
    with open(HOSTS, "a") as hosts:
        hosts.write("\n".join(lines) + "\n")

    def remove():
        kept = [line for line in HOSTS.read_text().splitlines() if not line.endswith(tag)]
        HOSTS.write_text("\n".join(kept) + "\n")
    cleanup.add("restore /etc/hosts", remove)
    for name in names:
        resolved = socket.gethostbyname(name)
        if resolved != address:
            raise Failure(f"{name} resolves to {resolved}, not {address} (an earlier line in /etc/hosts?)")


# MARK: nginx

class Nginx:
    """One nginx terminating TLS for each (host → 127.0.0.1:port) on `address`:443, passing the
    Host as sent (HTTP signatures cover it) and X-Forwarded-Proto https."""

    def __init__(self, directory: Path, address: str = "127.0.0.1"):
        self.dir = directory
        self.address = address
        self.sites: list[tuple[str, int, Path, Path]] = []
        self.process: Process | None = None

    def site(self, host: str, port: int, cert: Path, key: Path):
        self.sites.append((host, port, cert, key))

    def start(self, cleanup: Cleanup):
        if not shutil.which("nginx"):
            raise Skip("nginx is not installed (apt-get install nginx)")
        self.dir.mkdir(parents=True, exist_ok=True)
        for sub in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.dir / sub).mkdir(exist_ok=True)
        servers = "\n".join(f"""
    server {{
        listen {self.address}:443 ssl;
        server_name {host};
        ssl_certificate {cert};
        ssl_certificate_key {key};
        client_max_body_size 10m;
        location / {{
            proxy_pass http://127.0.0.1:{port};
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto https;
            proxy_read_timeout 60s;
        }}
    }}""" for host, port, cert, key in self.sites)
        config = self.dir / "nginx.conf"
        config.write_text(f"""
daemon off;
worker_processes 2;
{"user root;" if os.geteuid() == 0 else ""}
pid {self.dir}/nginx.pid;
error_log {self.dir}/error.log info;
events {{ worker_connections 256; }}
http {{
    access_log {self.dir}/access.log;
    client_body_temp_path {self.dir}/client_body;
    proxy_temp_path {self.dir}/proxy;
    fastcgi_temp_path {self.dir}/fastcgi;
    uwsgi_temp_path {self.dir}/uwsgi;
    scgi_temp_path {self.dir}/scgi;
{servers}
}}
""")
        check_call(["nginx", "-t", "-p", str(self.dir), "-c", str(config)])
        self.process = Process("nginx", ["nginx", "-p", str(self.dir), "-c", str(config)],
                               self.dir / "stderr.log")
        cleanup.add("stop nginx", self.process.stop)
        _, waited = wait_until(lambda: _connects(self.address, 443), 10, 0.1)
        self.process.check()
        if not _connects(self.address, 443):
            raise Failure(f"nginx does not listen on {self.address}:443:\n{tail(self.dir / 'error.log')}")


def _connects(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


# MARK: HTTP

def http(method: str, url: str, headers: dict | None = None, body=None,
         timeout: float = 20) -> tuple[int, dict, str]:
    """One request (TLS verified against the system store, where the test CA is); (status,
    headers, text). HTTP errors are answers, not exceptions."""
    data = None
    headers = dict(headers or {})
    if body is not None:
        if isinstance(body, (dict, list)):
            data = json.dumps(body).encode()
            headers.setdefault("Content-Type", "application/json")
        else:
            data = body if isinstance(body, bytes) else str(body).encode()
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    context = ssl.create_default_context()
    try:
        with urllib.request.urlopen(request, timeout=timeout, context=context) as response:
            return response.status, dict(response.headers), response.read().decode(errors="replace")
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode(errors="replace")


def http_json(method: str, url: str, **kwargs):
    status, _, text = http(method, url, **kwargs)
    try:
        return status, json.loads(text) if text else None
    except json.JSONDecodeError:
        return status, text


# MARK: Lectern

class LecternBlog:
    """The real `lectern serve` of a site made with `lectern init`, public as https://HOST
    behind nginx; driven only through its CLI, HTTP and its log."""

    def __init__(self, lectern: str, host: str, directory: Path):
        source = Path(lectern).resolve()
        if not os.access(source, os.X_OK):
            raise Skip(f"no Lectern binary at {source} (build it first: swift build --product lectern)")
        directory.mkdir(parents=True, exist_ok=True)
        # A copy: a rebuild while the test runs can neither fail its commands (ETXTBSY) nor mix
        # two versions of Lectern in one run.
        self.lectern = str(directory / "lectern")
        shutil.copy2(source, self.lectern)
        self.host = host
        self.base = f"https://{host}"
        self.root = directory / "site"
        self.port = free_port()
        self.log_path = directory / "serve.log"
        self.process: Process | None = None

    @property
    def actor(self) -> str:
        return self.base + "/actor"

    @property
    def handle(self) -> str:
        return f"blog@{self.host}"

    def run(self, *args: str, site: bool = True, timeout: float = 60) -> str:
        return check_call([self.lectern, *args] + (["-s", str(self.root)] if site else []), timeout)

    def create(self, extra_config: str = ""):
        self.run("init", str(self.root), site=False)
        config = self.root / "lectern.yml"
        text = config.read_text()
        for old, new in (("baseURL: http://127.0.0.1:8080", f"baseURL: {self.base}"),
                         ("  port: 8080", f"  port: {self.port}")):
            if old not in text:
                raise Failure(f"lectern init's lectern.yml has no line '{old}' to change")
            text = text.replace(old, new)
        # The peer server is on this machine (127.0.0.1), which Lectern refuses unless told.
        text += "\nfederation:\n  allowPrivateAddresses: true\n" + extra_config
        config.write_text(text)

    def start(self, cleanup: Cleanup, timeout: float = 90):
        self.process = Process("lectern serve", [self.lectern, "serve", "-s", str(self.root), "--host",
                                                 "127.0.0.1", "--port", str(self.port),
                                                 "--log-level", "debug"], self.log_path)
        cleanup.add("stop lectern serve", self.process.stop)
        up, waited = wait_until(lambda: http("GET", self.base + "/", timeout=5)[0] == 200, timeout, 0.2)
        self.process.check()
        if not up:
            raise Failure(f"{self.base}/ did not answer 200 within {timeout:.0f} s:\n{tail(self.log_path)}")
        return waited

    def followers(self) -> list[str]:
        """The actor ids `lectern followers list --json` gives."""
        listed = json.loads(self.run("followers", "list", "--json"))
        if isinstance(listed, dict):
            listed = listed.get("followers", [])
        return [entry.get("actor") or entry.get("actor_id") or entry.get("id") if isinstance(entry, dict)
                else entry for entry in listed]

    def comments(self) -> list[dict]:
        listed = json.loads(self.run("comments", "list", "--json"))
        if isinstance(listed, dict):
            listed = listed.get("comments", [])
        return listed

    def log_lines(self, since: int = 0, containing: tuple[str, ...] = ()) -> list[str]:
        """The server log's lines from line `since` on, those with any of `containing`."""
        try:
            lines = self.log_path.read_text(errors="replace").splitlines()[since:]
        except OSError:
            return []
        return [line for line in lines if not containing or any(word in line for word in containing)]

    def log_length(self) -> int:
        try:
            return len(self.log_path.read_text(errors="replace").splitlines())
        except OSError:
            return 0

    def query(self, sql: str, *args) -> list[sqlite3.Row]:
        db = sqlite3.connect(f"file:{self.root / 'data' / 'lectern.sqlite'}?mode=ro", uri=True, timeout=5)
        db.row_factory = sqlite3.Row
        try:
            return db.execute(sql, args).fetchall()
        finally:
            db.close()


def require_root():
    if os.geteuid() != 0:
        raise Skip("needs root (nginx on port 443, /etc/hosts, the system CA store)")


def python_for(venv: Path) -> str:
    python = venv / "bin" / "python"
    if not python.exists():
        raise Skip(f"no Python in the venv {venv}")
    return str(python)


if __name__ == "__main__":
    sys.exit("a module of the real-server tests; run takahe.py")
