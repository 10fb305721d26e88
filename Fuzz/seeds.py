#!/usr/bin/env python3
"""Writes the seed corpora of Fuzz/Corpus/<target>/ from the repository's own test inputs.

Run from anywhere: `python3 Fuzz/seeds.py`. Seeds are named `seed-<source>-<hash>`; files that
libFuzzer adds later (`make fuzz` merges them in) are named by their SHA-1. Re-running adds
seeds and never deletes anything.
"""
import glob
import hashlib
import json
import os
import re

FUZZ = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(FUZZ)
MAX_LEN = {"fuzz-front-matter": 16384, "fuzz-sanitizer": 16384, "fuzz-signature-headers": 4096,
           "fuzz-activity": 65536}


def swift_literals(path):
    """String literals of a Swift file: "…", #"…"#, and multi-line \"\"\" … \"\"\" (indent removed)."""
    text = open(path, encoding="utf-8").read()
    out = []
    pattern = re.compile(r'(#*)("""|")')
    i = 0
    while True:
        m = pattern.search(text, i)
        if not m:
            break
        hashes, quote = m.group(1), m.group(2)
        start = m.end()
        closing = quote + hashes
        j = start
        raw = []
        ok = False
        while j < len(text):
            if text.startswith(closing, j):
                ok = True
                break
            if not hashes and text[j] == "\\" and j + 1 < len(text):
                raw.append(text[j:j + 2])
                j += 2
                continue
            if quote == '"' and text[j] == "\n":
                break
            raw.append(text[j])
            j += 1
        i = j + len(closing) if ok else start
        if not ok:
            continue
        body = "".join(raw)
        if quote == '"""':
            lines = body.split("\n")[1:]
            indent = len(lines[-1]) if lines and not lines[-1].strip() else 0
            body = "\n".join(line[indent:] for line in lines[:-1])
        if not hashes:
            body = unescape(body)
        out.append(body)
    return out


def unescape(s):
    def repl(m):
        e = m.group(1)
        if e.startswith("u{"):
            try:
                return chr(int(e[2:-1], 16))
            except ValueError:
                return ""
        return {"n": "\n", "t": "\t", "r": "\r", "0": "\0", '"': '"', "'": "'", "\\": "\\"}.get(e, "\\" + e)
    return re.sub(r'\\(u\{[0-9a-fA-F]+\}|.)', repl, s, flags=re.S)


class Corpus:
    def __init__(self, target):
        self.target = target
        self.dir = os.path.join(FUZZ, "Corpus", target)
        os.makedirs(self.dir, exist_ok=True)
        self.seen = set()
        for name in os.listdir(self.dir):
            self.seen.add(hashlib.sha1(open(os.path.join(self.dir, name), "rb").read()).hexdigest())
        self.added = 0

    def add(self, source, data):
        if isinstance(data, str):
            data = data.encode("utf-8")
        if not data or len(data) > MAX_LEN[self.target]:
            return
        digest = hashlib.sha1(data).hexdigest()
        if digest in self.seen:
            return
        self.seen.add(digest)
        name = "seed-" + re.sub(r"[^A-Za-z0-9_.-]+", "_", source)[:60] + "-" + digest[:8]
        with open(os.path.join(self.dir, name), "wb") as f:
            f.write(data)
        self.added += 1


def rel(path):
    return os.path.relpath(path, ROOT)


def front_matter():
    c = Corpus("fuzz-front-matter")
    for site in ("hugo-site", "jekyll-site", "zola-site"):
        for path in sorted(glob.glob(os.path.join(ROOT, "Tests/Fixtures/import", site, "**/*"), recursive=True)):
            if os.path.isfile(path) and path.endswith((".md", ".markdown", ".html")):
                c.add(site + "-" + os.path.basename(path), open(path, "rb").read())
    files = ["Tests/SiteTests/FrontMatterTests.swift", "Tests/SiteTests/SourceFormatTests.swift",
             "Tests/SiteTests/BuildTests.swift", "Tests/SiteTests/TestSite.swift", "Tests/SiteTests/FeedTests.swift",
             "Tests/ImportTests/TOMLFrontMatterTests.swift", "Tests/ImportTests/PermalinkAndFrontMatterTests.swift",
             "Sources/Site/Scaffold/ExamplePosts.swift"]
    for name in files:
        path = os.path.join(ROOT, name)
        if not os.path.exists(path):
            continue
        for literal in swift_literals(path):
            if "---\n" in literal or "+++\n" in literal:
                c.add(os.path.basename(name), literal)
            elif "TOML" in name and "=" in literal and len(literal) > 8:
                c.add(os.path.basename(name) + "-toml", "+++\n" + literal.rstrip("\n") + "\n+++\nBody\n")
    # The loader's own normalizations: CR LF, lone CR, byte-order mark.
    c.add("crlf", b"---\r\ntitle: Windows\r\ndate: 2025-01-02\r\n---\r\nBody\r\n")
    c.add("cr", b"---\rtitle: Old Mac\rdate: 2025-01-02\r---\rBody\r")
    c.add("bom", b"\xef\xbb\xbf---\ntitle: BOM\ndate: 2025-01-02\n---\nBody\n")
    c.add("toml", b'+++\ntitle = "T"\ndate = 2025-01-02T10:00:00Z\n[taxonomies]\ntags = ["a", "b"]\n[extra]\nx = 1\n+++\nB\n')
    return c


def sanitizer():
    c = Corpus("fuzz-sanitizer")
    for name in ["Tests/SiteTests/SanitizerTests.swift", "Tests/SiteTests/DiscussionRenderingTests.swift"]:
        path = os.path.join(ROOT, name)
        if os.path.exists(path):
            for literal in swift_literals(path):
                if "<" in literal or "&" in literal:
                    c.add(os.path.basename(name), literal)
    for path in sorted(glob.glob(os.path.join(ROOT, "Tests/Fixtures/activities/*.json"))):
        def visit(value, key=""):
            if isinstance(value, dict):
                for k, v in value.items():
                    visit(v, k)
            elif isinstance(value, list):
                for v in value:
                    visit(v, key)
            elif isinstance(value, str) and key in ("content", "summary", "name", "contentMap", "en", "de", "fr") \
                    and ("<" in value or "&" in value):
                c.add(os.path.basename(path)[:-5] + "-" + key, value)
        try:
            visit(json.load(open(path, encoding="utf-8")))
        except ValueError:
            pass
    return c


def signature_headers():
    c = Corpus("fuzz-signature-headers")
    vectors = os.path.join(ROOT, "Tests/HTTPSignaturesTests/Vectors")
    cavage = json.load(open(os.path.join(vectors, "draft-cavage-12.json")))
    for case in cavage["cases"]:
        parts = ['keyId="Test"', 'algorithm="rsa-sha256"']
        if case.get("headers"):
            parts.append('headers="%s"' % case["headers"])
        parts.append('signature="%s"' % case["signature"])
        c.add("cavage", ",".join(parts))
        c.add("cavage-authorization", "Signature " + ",".join(parts))
    c.add("cavage-hs2019", 'keyId="https://remote.example/users/a#main-key",algorithm="hs2019",created=1700000000,'
          'expires=1700000300,headers="(request-target) (created) (expires) host digest",signature="c2lnbmF0dXJl"')
    for header in cavage["request"]["headers"]:
        c.add("cavage-request-" + header[0], header[1])
    rfc9421 = json.load(open(os.path.join(vectors, "rfc9421.json")))
    cases = list(rfc9421.get("cases", []))
    if isinstance(rfc9421.get("transform"), dict):
        cases.append(rfc9421["transform"])
    for case in cases:
        for key in ("signatureInput", "signature"):
            if key in case:
                c.add("rfc9421-" + key, case[key])
        if "signatureInput" in case:
            c.add("rfc9421-inner-list", case["signatureInput"].split("=", 1)[1])
    for header in rfc9421["request"]["headers"]:
        c.add("rfc9421-request-" + header[0], header[1])
    rfc9530 = json.load(open(os.path.join(vectors, "rfc9530.json")))
    for case in rfc9530["cases"]:
        c.add("content-digest", "sha-256=:%s:, sha-512=:%s:" % (case["sha-256"], case["sha-512"]))
        c.add("digest", "SHA-256=%s" % case["sha-256"])
        c.add("digest-multiple", "SHA-512=%s, sha-256=%s" % (case["sha-512"], case["sha-256"]))
    for date in ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"]:
        c.add("http-date", date)
    c.add("sf-mixed", 'a=1, b=-2.5;x=?0, c="s\\"q", d=:AQID:, e=tok/en:x, f=(1 "two" ?1);p=*a')
    for name in sorted(glob.glob(os.path.join(ROOT, "Tests/HTTPSignaturesTests/*.swift"))):
        for literal in swift_literals(name):
            if 4 <= len(literal) <= 600 and ("=" in literal or "GMT" in literal) and "\n" not in literal:
                c.add(os.path.basename(name), literal)
    return c


def activity():
    c = Corpus("fuzz-activity")
    for path in sorted(glob.glob(os.path.join(ROOT, "Tests/Fixtures/activities/*.json"))):
        if os.path.basename(path) != "expected.json":
            c.add(os.path.basename(path)[:-5], open(path, "rb").read())
    return c


if __name__ == "__main__":
    for corpus in (front_matter(), sanitizer(), signature_headers(), activity()):
        print("%-24s %4d seeds added, %4d files" % (corpus.target, corpus.added, len(os.listdir(corpus.dir))))
