"""Interoperability with real fediverse servers on this machine, as a blog owner would meet them:
the real `lectern serve` as https://blog.test and the server under test (GoToSocial, the binary
GOTOSOCIAL_BIN names) as https://gts.test, both behind nginx with a local CA trusted
system-wide, the names in /etc/hosts. Needs root (port 443, /etc/hosts, the CA store); both are
restored at exit.

    python3 -B Tests/RealServers gotosocial|takahe|all --lectern .build/debug/lectern [--mode off|on|both] [--keep]

Takahē (TAKAHE_SRC, its source; TAKAHE_VENV, a venv with its requirements) runs as
https://takahe.test beside the blog in the same way.

Prints `PASS|FAIL step (seconds)` per step and `N passed, N failed`; exits non-zero on a failure.
Without GOTOSOCIAL_BIN it prints `SKIP: …` and exits 0."""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree

from common import Lectern, Nginx, log, run_against  # noqa: E402

BLOG, GTS = "blog.test", "gts.test"


def skip(reason: str) -> int:
    log(f"SKIP: {reason}")
    return 0


def gotosocial(args) -> int:
    binary = os.environ.get("GOTOSOCIAL_BIN")
    if not binary:
        return skip("GOTOSOCIAL_BIN not set")
    if not os.access(binary, os.X_OK):
        log(f"FAIL: GOTOSOCIAL_BIN={binary} is not an executable")
        return 1
    if os.geteuid() != 0:
        return skip("needs root (nginx on 127.0.0.1:443, /etc/hosts, the CA store)")
    from gotosocial import GoToSocial
    from story import run_round

    def setup(work, machine, parts):
        # The last line: a build without WebAssembly prints a warning banner first.
        version = (os.popen(f"'{binary}' --version 2>/dev/null").read().strip().splitlines() or [binary])[-1]
        log(f"real servers: Lectern ({args.lectern}) with GoToSocial ({version}); work folder {work}")
        servers["gts"] = GoToSocial(binary, work, GTS, machine.ca_cert)
        parts.append(servers["gts"])
        servers["gts"].make_template(["alice", "owner"])
        servers["blog"] = Lectern(args.lectern, work, BLOG, owner=f"@owner@{GTS}")
        parts.append(servers["blog"])
        nginx = Nginx(work, machine, {BLOG: servers["blog"].port, GTS: servers["gts"].port})
        parts.append(nginx)
        nginx.start()
        servers["ca"] = str(machine.ca_cert)

    def one_round(steps, authorized_fetch):
        blog, gts = servers["blog"], servers["gts"]
        try:
            run_round(steps, blog, gts, servers["ca"], "authorized" if authorized_fetch else "plain", authorized_fetch)
        finally:
            blog.stop()
            gts.stop()

    servers: dict = {}
    return run_against(args, [BLOG, GTS], setup, one_round)


def main() -> int:
    parser = argparse.ArgumentParser(prog="Tests/RealServers", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("server", choices=["gotosocial", "takahe", "all"])
    parser.add_argument("--lectern", default=".build/debug/lectern")
    parser.add_argument("--mode", choices=["off", "on", "both"], default="both",
                        help="federation.authorizedFetch for the blog: off, on, or a round of each (default)")
    parser.add_argument("--keep", action="store_true", help="keep the work folder (logs, sites, databases)")
    args = parser.parse_args()

    def terminate(signum, _frame):
        raise SystemExit(128 + signum)  # unwinds through each server's cleanup

    signal.signal(signal.SIGTERM, terminate)
    signal.signal(signal.SIGHUP, terminate)
    from takahe import takahe
    servers = {"gotosocial": [gotosocial], "takahe": [takahe], "all": [gotosocial, takahe]}[args.server]
    return max(server(args) for server in servers)


if __name__ == "__main__":
    sys.exit(main())
