"""What every real-server test needs: a local certificate authority trusted system-wide, names in
/etc/hosts, an nginx TLS front, the real `lectern serve` in a temporary site, and a step runner.

Everything this file changes outside its temporary folder (/etc/hosts, the CA store) is marked
with MARK and undone by `Machine.restore()`, which also removes what a killed earlier run left."""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

MARK = "lectern-real-servers"
HOSTS = Path("/etc/hosts")
CA_DIR = Path("/usr/local/share/ca-certificates")
CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
LOCK = Path("/run/lock") / f"{MARK}.lock"


class Skip(Exception):
    """The run cannot happen on this machine (its message says why)."""


class Failure(Exception):
    """A step's expectation that did not hold (its message says what and why)."""


def expect(condition, message: str):
    if not condition:
        raise Failure(message)


def log(line: str):
    try:
        print(line, flush=True)
    except OSError:  # a closed pipe (`| head`) must not stop the cleanup
        pass


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


def wait_until(probe, timeout: float, interval: float = 0.1):
    """Calls `probe()` until it returns something truthy or `timeout` seconds pass; returns
    (value, seconds waited). The last falsy value is returned when time runs out."""
    start = time.monotonic()
    while True:
        value = probe()
        if value:
            return value, time.monotonic() - start
        if time.monotonic() - start >= timeout:
            return value, time.monotonic() - start
        time.sleep(interval)


def tail(path: Path, lines: int = 20, grep: str | None = None) -> str:
    try:
        text = path.read_text(errors="replace").splitlines()
    except OSError:
        return "    (no log)"
    if grep:
        text = [line for line in text if grep in line]
    return "\n".join("    " + line[:400] for line in text[-lines:])


# MARK: the machine: CA, CA store, /etc/hosts

class Machine:
    """A local CA whose certificates nginx presents for `names`, trusted by the system store
    (libcurl in Lectern, Go through SSL_CERT_FILE too), and `names` → 127.0.0.1 in /etc/hosts.

    Real-server runs share one machine (port 443, the names): a run holds LOCK for its whole
    length, and waits while 127.0.0.1:443 is taken by anything else. What it adds carries its
    process id; it removes only its own, and what runs no longer alive left."""

    def __init__(self, work: Path, names: list[str]):
        self.work = work
        self.names = names
        self.ca_cert = work / "ca.crt"
        self.tag = f"# {MARK} pid={os.getpid()}"
        self.installed_ca = CA_DIR / f"{MARK}-{os.getpid()}.crt"
        self._lock = None

    def take_turn(self, timeout: float = 600):
        """The machine to ourselves: LOCK, then 127.0.0.1:443 free (bounded waits)."""
        lock = open(LOCK, "w")
        start = time.monotonic()
        told = False
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                pass
            if not told:
                log(f"  waiting for another real-server run ({LOCK})")
                told = True
            if time.monotonic() - start >= timeout:
                lock.close()
                raise Failure(f"another real-server run held {LOCK} for {timeout:.0f} s")
            time.sleep(1)
        self._lock = lock  # held from here on: restore() may clear what dead runs left
        while not port_free(443):
            if not told:
                log("  waiting for 127.0.0.1:443 (taken by another process)")
                told = True
            expect(time.monotonic() - start < timeout, f"127.0.0.1:443 still taken after {timeout:.0f} s")
            time.sleep(1)

    def prepare(self):
        """After `take_turn()` (or the caller's own hold of LOCK)."""
        self.restore(quiet=True)  # what a killed run left behind
        self._make_ca()
        for name in self.names:
            self._issue(name)
        shutil.copy(self.ca_cert, self.installed_ca)
        self._update_ca_store()
        expect(self.ca_cert.read_text().strip().splitlines()[1] in CA_BUNDLE.read_text(),
               f"update-ca-certificates did not put the test CA into {CA_BUNDLE}")
        lines = "".join(f"127.0.0.1 {name} {self.tag}\n" for name in self.names)
        text = HOSTS.read_text()
        if text and not text.endswith("\n"):
            text += "\n"
        # Written in place, not replaced: /etc/hosts is often a bind mount in a container.
        HOSTS.write_text(text + lines)

    def _ours_or_stale(self, marked: str) -> bool:
        """Whether something MARK-ed (a hosts line, a CA file name) is this run's, or, while
        this run holds LOCK, a dead run's (an unnumbered mark is an older harness's)."""
        found = re.search(rf"{MARK}(?: pid=|-)(\d+)", marked)
        if found and int(found.group(1)) == os.getpid():
            return True
        if self._lock is None:  # without the turn, another run may be using them
            return False
        return not found or not Path(f"/proc/{found.group(1)}").exists()

    def restore(self, quiet: bool = False):
        try:
            text = HOSTS.read_text()
            lines = text.splitlines(keepends=True)
            kept = [line for line in lines if not (MARK in line and self._ours_or_stale(line))]
            if len(kept) != len(lines):
                HOSTS.write_text("".join(kept))
        except OSError as error:
            log(f"  cleanup: /etc/hosts: {error}")
        removed = [path for path in CA_DIR.glob(f"{MARK}-*.crt") if self._ours_or_stale(path.name)]
        for path in removed:
            path.unlink(missing_ok=True)
        if removed or not quiet:
            self._update_ca_store()
        if not quiet and self._lock:
            self._lock.close()  # the turn ends: releases the flock
            self._lock = None

    def _update_ca_store(self):
        subprocess.run(["update-ca-certificates"], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=60)

    def _openssl(self, *args: str):
        result = subprocess.run(["openssl", *args], cwd=self.work, capture_output=True, text=True, timeout=60)
        expect(result.returncode == 0, f"openssl {' '.join(args[:2])} failed: {result.stderr[-500:]}")

    def _make_ca(self):
        self._openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                      "-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", f"/CN={MARK} test CA",
                      "-addext", "basicConstraints=critical,CA:TRUE",
                      "-addext", "keyUsage=critical,keyCertSign,cRLSign")

    def _issue(self, name: str):
        (self.work / f"{name}.ext").write_text(
            f"subjectAltName=DNS:{name}\nbasicConstraints=CA:FALSE\n"
            "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n")
        self._openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                      "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", f"/CN={name}")
        self._openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
                      "-CAcreateserial", "-out", f"{name}.crt", "-days", "2", "-extfile", f"{name}.ext")

    def cert(self, name: str) -> tuple[Path, Path]:
        return self.work / f"{name}.crt", self.work / f"{name}.key"


# MARK: processes

class Process:
    """A server process with its output in a log file; stopped with SIGTERM, then SIGKILL."""

    def __init__(self, name: str, command: list[str], log_path: Path, env: dict | None = None, cwd=None):
        self.name = name
        self.log_path = log_path
        self._log = open(log_path, "ab")
        self.popen = subprocess.Popen(command, stdout=self._log, stderr=subprocess.STDOUT,
                                      stdin=subprocess.DEVNULL, env=env, cwd=cwd, start_new_session=True)

    def alive(self) -> bool:
        return self.popen.poll() is None

    def wait_listening(self, port: int, timeout: float):
        def listening():
            expect(self.alive(), f"{self.name} exited with {self.popen.returncode}:\n{tail(self.log_path)}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    return True
            except OSError:
                return False

        up, _ = wait_until(listening, timeout)
        expect(up, f"{self.name} did not listen on 127.0.0.1:{port} within {timeout:.0f} s:\n{tail(self.log_path)}")

    def stop(self, grace: float = 10):
        if self.alive():
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(grace)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()
        self._log.close()


class Nginx:
    """nginx on 127.0.0.1:443, one TLS server per name, each proxying to a loopback port."""

    def __init__(self, work: Path, machine: Machine, upstreams: dict[str, int]):
        self.work = work
        self.conf = work / "nginx.conf"
        self.log_path = work / "nginx.log"
        servers = []
        for name, port in upstreams.items():
            cert, key = machine.cert(name)
            servers.append(f"""
    server {{
        listen 127.0.0.1:443 ssl;
        server_name {name};
        ssl_certificate {cert};
        ssl_certificate_key {key};
        client_max_body_size 40m;
        location / {{
            proxy_pass http://127.0.0.1:{port};
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_read_timeout 60s;
        }}
    }}""")
        self.conf.write_text(f"""
daemon off;
master_process on;
worker_processes 1;
pid {work}/nginx.pid;
error_log {self.log_path} warn;
events {{ worker_connections 256; }}
http {{
    access_log {work}/nginx-access.log;
    client_body_temp_path {work}/nginx-body;
    proxy_temp_path {work}/nginx-proxy;
    fastcgi_temp_path {work}/nginx-fastcgi;
    uwsgi_temp_path {work}/nginx-uwsgi;
    scgi_temp_path {work}/nginx-scgi;
{''.join(servers)}
}}
""")
        self.process: Process | None = None

    def start(self):
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        check = subprocess.run([nginx, "-t", "-c", str(self.conf)], capture_output=True, text=True, timeout=30)
        expect(check.returncode == 0, f"nginx -t: {check.stderr[-800:]}")
        self.process = Process("nginx", [nginx, "-c", str(self.conf)], self.log_path)
        self.process.wait_listening(443, 10)

    def stop(self):
        if self.process:
            self.process.stop()


# MARK: Lectern

class Lectern:
    """The real `lectern serve` in a temporary site at `https://{name}` (behind nginx), and its CLI."""

    def __init__(self, binary: str, work: Path, name: str, owner: str):
        self.source_binary = str(Path(binary).resolve())
        expect(os.access(self.source_binary, os.X_OK), f"no Lectern binary at {self.source_binary}")
        # A copy: a rebuild while the test runs can neither fail its commands (ETXTBSY) nor mix
        # two versions of Lectern in one run.
        self.binary = str(work / "lectern")
        shutil.copy2(self.source_binary, self.binary)
        self.work = work
        self.name = name
        self.owner = owner
        self.base = f"https://{name}"
        self.port = free_port()
        self.root: Path | None = None
        self.log_path: Path | None = None
        self.process: Process | None = None

    @property
    def actor(self) -> str:
        return self.base + "/actor"

    def create(self, label: str, authorized_fetch: bool):
        """`lectern init`, then lectern.yml: the https name, the port, the owner, loopback peers."""
        self.root = self.work / f"site-{label}"
        self.log_path = self.work / f"lectern-{label}.log"
        self.run("init", str(self.root), site=False)
        config = self.root / "lectern.yml"
        text = config.read_text()
        for old, new in (("baseURL: http://127.0.0.1:8080", f"baseURL: {self.base}"),
                         ("  port: 8080", f"  port: {self.port}")):
            expect(old in text, f"lectern init's lectern.yml has no line '{old}' to change")
            text = text.replace(old, new)
        text += (f'\nowner: "{self.owner}"\n'
                 "digest:\n  interval: 1m\n"
                 "federation:\n"
                 "  allowPrivateAddresses: true\n"
                 f"  authorizedFetch: {'true' if authorized_fetch else 'false'}\n")
        config.write_text(text)

    def start(self, ca_file: Path | None = None):
        """`ca_file` is not needed: Lectern's libcurl trusts the system store `Machine` adds the
        CA to (kept for callers that pass it)."""
        self.process = Process("lectern", [self.binary, "serve", "-s", str(self.root), "--host", "127.0.0.1",
                                           "--port", str(self.port), "--log-level", "info"], self.log_path)
        self.process.wait_listening(self.port, 60)

    def stop(self):
        if self.process:
            self.process.stop()
            self.process = None

    def run(self, *args: str, site: bool = True, timeout: float = 60) -> str:
        command = [self.binary, *args] + (["-s", str(self.root)] if site else [])
        try:
            result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise Failure(f"`lectern {' '.join(args)}` did not finish within {timeout:.0f} s")
        expect(result.returncode == 0, f"`lectern {' '.join(args)}` exited with {result.returncode}:\n"
                                       f"{result.stdout[-1500:]}{result.stderr[-1500:]}")
        return result.stdout

    def json(self, *args: str):
        return json.loads(self.run(*args, "--json"))

    def log_tail(self, lines: int = 15) -> str:
        return tail(self.log_path, lines) if self.log_path else "    (no log)"

    def write_post(self, title: str, slug: str, body: str) -> tuple[Path, str]:
        """A post dated now; returns its file and its URL."""
        from datetime import datetime, timezone
        now = datetime.now(timezone.utc).replace(microsecond=0)
        path = self.root / "content" / "posts" / f"{now:%Y-%m-%d}-{slug}.md"
        path.write_text(f"---\ntitle: {title}\ndate: {now:%Y-%m-%dT%H:%M:%SZ}\nslug: {slug}\n"
                        f"summary: Written by the real-server test.\n---\n\n{body}\n")
        return path, f"{self.base}/{now:%Y}/{slug}/"


# MARK: steps

class Steps:
    """Runs named steps, each timed; prints PASS/FAIL lines and the summary."""

    def __init__(self):
        self.passed: list[str] = []
        self.failed: list[str] = []
        self.rows: list[tuple[str, str, float, str]] = []

    def run(self, name: str, step) -> bool:
        start = time.monotonic()
        try:
            detail = step() or ""
            ok = True
        except Failure as failure:
            detail, ok = str(failure), False
        except Exception as error:  # a bug or a network error in the step: reported, not fatal
            detail, ok = f"{type(error).__name__}: {error}", False
        seconds = time.monotonic() - start
        (self.passed if ok else self.failed).append(name)
        self.rows.append((name, "PASS" if ok else "FAIL", seconds, detail))
        log(f"{'PASS' if ok else 'FAIL'} {name} ({seconds:.2f} s)")
        for line in str(detail).splitlines():
            log(f"    {line}")
        return ok

    def fail(self, name: str, message: str):
        """A failure outside any step (setup): counted and printed like a failed step."""
        def raise_it():
            raise Failure(message)
        self.run(name, raise_it)

    def summary(self) -> str:
        return f"{len(self.passed)} passed, {len(self.failed)} failed"


def temporary_folder() -> Path:
    return Path(tempfile.mkdtemp(prefix=f"{MARK}-"))


MODES = {"off": [False], "on": [True], "both": [False, True]}


def run_against(args, hosts: list[str], setup, run_round) -> int:
    """What every real server's run shares: one run at a time on the machine (`Machine`: the
    lock, the CA, /etc/hosts), a work folder, `setup(work, machine, parts)` starting the blog,
    the server and nginx (appending each to `parts` as it starts, so a failed start still stops
    what had started), `run_round(steps, authorized_fetch)` for each of `args.mode`'s rounds, and
    everything stopped, restored and removed at the end, whatever happened."""
    started = time.monotonic()
    work = temporary_folder()
    machine = Machine(work, hosts)
    steps = Steps()
    parts: list = []
    try:
        machine.take_turn()
        machine.prepare()
        setup(work, machine, parts)
        for authorized_fetch in MODES[args.mode]:
            run_round(steps, authorized_fetch)
    except Skip as reason:
        log(f"SKIP: {reason}")
    except (Failure, OSError, subprocess.SubprocessError) as failure:
        steps.fail("setup", f"{type(failure).__name__}: {failure}")
    finally:
        for part in parts:
            try:
                part.stop()
            except Exception as error:  # the rest of the cleanup must still run
                log(f"  cleanup: {error}")
        machine.restore()
        if args.keep:
            log(f"  kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    skipped = sum(row[1] == "SKIP" for row in steps.rows)
    log(f"{steps.summary()}" + (f", {skipped} skipped" if skipped else "") + f" in {time.monotonic() - started:.0f} s")
    return 1 if steps.failed else 0
