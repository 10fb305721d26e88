"""Interoperability test: the real `lectern serve` federating with bovine (an independent
ActivityPub implementation from PyPI). See docs/interop.md.

    python3 Tests/Interop [--lectern .build/debug/lectern] [--keep] [--no-fixtures]

Prints each step, a summary, and exits non-zero on any failure."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree

from blog import Blog, Failure  # noqa: E402
from fixtures import FixtureRun, actor_names  # noqa: E402
from modern import ModernPeer  # noqa: E402
from peer import Peer  # noqa: E402
from scenario import Story  # noqa: E402
from webmention import WebmentionStory  # noqa: E402

FIXTURES = HERE.parent / "Fixtures" / "activities"


# bovine logs each refusal; the test reports them itself.
logging.getLogger("bovine").setLevel(logging.CRITICAL)


def log(line: str):
    try:
        print(line, flush=True)
    except OSError:  # a closed pipe (`| head`) must not stop the cleanup
        pass


async def main(args) -> int:
    started = time.monotonic()
    import bovine  # noqa: F401 - fail early and clearly when it is missing
    from importlib.metadata import version
    log(f"interop: Lectern ({args.lectern}) with bovine {version('bovine')} and apsig {version('apsig')}")

    names = {"alice", "bob", "carol", "mallory", "owner", "instance"}
    if not args.no_fixtures:
        names |= actor_names(args.fixtures)
    try:
        blog = Blog(args.lectern, keep=args.keep)
    except (Failure, OSError) as failure:
        log(f"interop: FAIL: {failure}")
        return 1
    peer = Peer(names)
    modern = ModernPeer({"dana"})
    webmention = None
    passed, failed, skipped = [], [], []
    fixtures_result = None
    try:
        await peer.start()
        log(f"  peer (bovine): {peer.base}, {len(peer.names)} actors")
        await modern.start()
        log(f"  peer (http-message-signatures, RFC 9421 only): {modern.base}")
        await blog.create(owner_handle=f"@owner@{peer.host}")
        await blog.start()
        log(f"  blog (lectern serve): {blog.base}, site {blog.root}, up after {time.monotonic() - started:.1f} s")

        story = Story(peer, blog, log, modern)
        webmention = WebmentionStory(blog, log)
        await webmention.start()
        stopped = False
        for title, step in story.steps() + webmention.steps():
            if stopped:
                skipped.append(title)
                log(f"  - {title}: skipped")
                continue
            t0 = time.monotonic()
            try:
                try:
                    detail = await asyncio.wait_for(step(), 60)
                except asyncio.TimeoutError:
                    raise Failure("did not finish within 60 s")
                passed.append(title)
                log(f"  ✓ {title} ({time.monotonic() - t0:.1f} s): {detail}")
            except Failure as failure:
                failed.append(title)
                stopped = True
                log(f"  ✗ {title} ({time.monotonic() - t0:.1f} s): {failure}")
            except Exception:  # noqa: BLE001 - a crash is a failure of that step, with its trace
                failed.append(title)
                stopped = True
                log(f"  ✗ {title}: crashed\n{traceback.format_exc()}")

        if not args.no_fixtures:
            t0 = time.monotonic()
            log(f"  fixtures: replaying {args.fixtures} (signed by bovine)…")
            run = FixtureRun(peer, blog, args.fixtures, log, verbose=args.verbose)
            try:
                fixtures_result = await asyncio.wait_for(run.run(), 300)
            except asyncio.TimeoutError:
                run.failures.append("the fixtures did not finish within 300 s")
                fixtures_result = (0, run.total, run.failures)
            ok, total, _ = fixtures_result
            log(f"  {'✓' if ok == total else '✗'} fixtures: {ok}/{total} as expected ({time.monotonic() - t0:.1f} s)")
            title = "fixtures' comments on the post's pages (HTML)"
            checked, missing = await run.shown_on_page()
            if missing or not checked:
                failed.append(title)
                log(f"  ✗ {title}: {len(missing)} of {checked} missing: {missing[:5]}")
            else:
                passed.append(title)
                log(f"  ✓ {title}: {checked} comments shown with their words")

        # Everything the blog sent was verified by bovine.
        posts = peer.received
        unverified = [r for r in posts if not r.verified]
        title = "every delivery from the blog verified by bovine"
        if unverified:
            failed.append(title)
            log(f"  ✗ {title}: {len(unverified)} of {len(posts)} not verified, e.g. "
                f"{[(r.path, r.type, r.error, r.signer) for r in unverified[:3]]}")
        else:
            passed.append(title)
            log(f"  ✓ {title}: {len(posts)} POSTs")
        # Every delivery carries a FEP-8b32 proof that apsig (an independent implementation) verifies
        # with the key the blog's actor lists in its assertionMethod.
        title = "every delivery's integrity proof verified by apsig"
        from apsig.proof import ProofVerifier
        import copy
        methods = {key.get("id"): key.get("publicKeyMultibase") for key in story.actor.get("assertionMethod", [])
                   if isinstance(key, dict)}
        unproven = []
        for r in posts:
            proof = r.activity.get("proof") if isinstance(r.activity.get("proof"), dict) else {}
            multikey = methods.get(proof.get("verificationMethod"))
            verdict = ProofVerifier(multikey).verify(copy.deepcopy(r.activity)) if multikey else None
            if verdict != proof.get("verificationMethod") or verdict is None:
                unproven.append((r.type, proof.get("verificationMethod")))
        tampered_ok = False
        if posts and methods:
            sample = copy.deepcopy(posts[0].activity)
            sample["id"] = str(sample.get("id")) + "x"
            tampered_ok = ProofVerifier(next(iter(methods.values()))).verify(sample) is None
        if unproven or not posts or not tampered_ok:
            failed.append(title)
            log(f"  ✗ {title}: {len(unproven)} of {len(posts)} without a proof apsig verifies, e.g. {unproven[:3]}; "
                f"a changed copy refused: {tampered_ok}")
        else:
            passed.append(title)
            log(f"  ✓ {title}: {len(posts)} POSTs (eddsa-jcs-2022 by {', '.join(methods)}); a changed copy fails")
        title = "bovine's verification is not vacuous"
        sample = next((r for r in posts if r.verified and r.body), None)
        if sample is None:
            failed.append(title)
            log(f"  ✗ {title}: no verified delivery to re-check")
        else:
            again = await peer.recheck(sample)
            tampered = await peer.recheck(sample, sample.body.replace(b'"', b"'", 1))
            if again == sample.signer and tampered is None:
                passed.append(title)
                log(f"  ✓ {title}: a delivery verifies again as received, and fails with one body byte "
                    "changed (and its digest recomputed)")
            else:
                failed.append(title)
                log(f"  ✗ {title}: as received → {again}, tampered → {tampered}")
        title = "every signed GET from the blog verified by bovine"
        if peer.gets["signed"] != peer.gets["verified"] or peer.gets["signed"] == 0:
            failed.append(title)
            log(f"  ✗ {title}: {peer.gets['verified']} of {peer.gets['signed']} signed GETs verified; "
                f"{peer.get_failures[:3]}")
        else:
            passed.append(title)
            with_query = peer.gets["verified_with_query"]
            log(f"  ✓ {title}: {peer.gets['verified']} of {peer.gets['total']} GETs signed and verified"
                + (f" ({with_query} with a query string, verified with the query kept in (request-target):"
                   " bovine 0.5.19 alone drops it)" if with_query else ""))
        title = "one refused RFC 9421 knock at bovine in the whole run"
        if len(peer.knocks) == 1:
            passed.append(title)
            log(f"  ✓ {title}: {peer.knocks[0][0]} {peer.knocks[0][1]}, then draft-cavage for "
                f"{len(peer.received)} POSTs and {peer.gets['signed']} GETs")
        else:
            failed.append(title)
            log(f"  ✗ {title}: {len(peer.knocks)} knocks: {peer.knocks[:5]}")
    except Failure as failure:
        failed.append("setup")
        log(f"  ✗ setup: {failure}")
    except Exception:  # noqa: BLE001
        failed.append("setup")
        log(f"  ✗ setup crashed:\n{traceback.format_exc()}")
    finally:
        tail = blog.log_tail(30) if failed else ""
        await blog.stop()
        await peer.stop()
        await modern.stop()
        if webmention:
            await webmention.stop()
        if tail:
            log("  lectern serve's last log lines:\n" + tail)
        if args.keep:
            log(f"  kept {blog.tmp}")

    steps_total = len(passed) + len(failed) + len(skipped)
    fixtures_text = ""
    fixtures_ok = True
    if fixtures_result:
        ok, total, failures = fixtures_result
        fixtures_ok = ok == total
        fixtures_text = f", fixtures {ok}/{total} as expected"
    elif not args.no_fixtures:
        fixtures_ok = False
        fixtures_text = ", fixtures not run"
    success = not failed and not skipped and fixtures_ok
    log(f"interop: {'PASS' if success else 'FAIL'}: steps {len(passed)}/{steps_total} passed{fixtures_text}, "
        f"{time.monotonic() - started:.1f} s")
    # The plain closing line test runners end with (steps and fixtures together).
    fixtures_ok_count, fixtures_total = (fixtures_result[0], fixtures_result[1]) if fixtures_result else (0, 0)
    log(f"interop: {len(passed) + fixtures_ok_count} passed, "
        f"{len(failed) + len(skipped) + fixtures_total - fixtures_ok_count} failed")
    return 0 if success else 1


def interrupted(signum, frame):
    raise KeyboardInterrupt  # so that the server is stopped and the site removed (finally: above)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, interrupted)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lectern", default=str(HERE.parent.parent / ".build" / "debug" / "lectern"),
                        help="the lectern binary (default: .build/debug/lectern)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary site (and its log)")
    parser.add_argument("--no-fixtures", action="store_true", help="only the scenario")
    parser.add_argument("--fixtures", type=Path, default=FIXTURES, help="the fixture folder (default: %(default)s)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every fixture's outcome")
    try:
        sys.exit(asyncio.run(main(parser.parse_args())))
    except KeyboardInterrupt:
        log("interop: interrupted (the server was stopped and the site removed)")
        sys.exit(130)
