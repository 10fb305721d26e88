"""Webmention against independent implementations from PyPI: ronkyuu (discovery and sending)
sends to the real `lectern serve`; Lectern sends to a small aiohttp receiver that reads Lectern's
page with mf2py (no receiver library exists on PyPI that runs as a local server); mf2py reads a
built post page as a complete h-entry with its comments nested. See docs/webmention.md."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime, timezone
from urllib.parse import parse_qs

import aiohttp
import mf2py
from aiohttp import web
from ronkyuu import webmention as ronkyuu

from blog import Blog, Failure, free_port


def expect(condition, message: str):
    if not condition:
        raise Failure(message)


def first(properties: dict, name: str):
    values = properties.get(name) or []
    return values[0] if values else None


class WebmentionStory:
    def __init__(self, blog: Blog, log):
        self.blog = blog
        self.log = log
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.received: list[dict] = []   # what the receiver got, with its verdict
        self.runner: web.AppRunner | None = None
        self.target_post = ""

    # MARK: the other site

    async def start(self):
        app = web.Application()
        app.router.add_get("/reply", self.reply_page)
        app.router.add_get("/article", self.article_page)
        app.router.add_post("/endpoint", self.endpoint)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        await web.TCPSite(self.runner, "127.0.0.1", self.port).start()

    async def stop(self):
        if self.runner:
            await self.runner.cleanup()

    async def reply_page(self, request):
        return web.Response(content_type="text/html", text=f"""<!doctype html><html><body>
            <article class="h-entry">
              <span class="p-author h-card"><a class="p-name u-url" href="{self.base}/">Ronkyuu Reader</a></span>
              <p>A reply to <a class="u-in-reply-to" href="{self.target_post}">a Lectern post</a>.</p>
              <div class="e-content"><p>Sent by ronkyuu from a page of my own.</p></div>
              <time class="dt-published" datetime="2026-11-20T10:00:00Z">today</time>
              <a class="u-url" href="{self.base}/reply">permalink</a>
            </article></body></html>""")

    async def article_page(self, request):
        return web.Response(content_type="text/html", headers={"Link": '</endpoint>; rel="webmention"'},
                            text="<!doctype html><html><body><article><p>An article worth linking to.</p></article></body></html>")

    async def endpoint(self, request):
        """A receiver per the spec: 202 at once, then the source is fetched and read with mf2py."""
        form = parse_qs(await request.text())
        source, target = (form.get("source") or [""])[0], (form.get("target") or [""])[0]
        record = {"source": source, "target": target, "content_type": request.headers.get("Content-Type", "")}
        self.received.append(record)
        asyncio.get_running_loop().create_task(self.verify(record))
        return web.Response(status=202, text="accepted")

    async def verify(self, record: dict):
        async with aiohttp.ClientSession() as session:
            async with session.get(record["source"]) as response:
                html = await response.text()
        parsed = mf2py.parse(doc=html, url=record["source"], html_parser="html5lib")
        entries = [item for item in parsed["items"] if "h-entry" in item["type"]]
        content = first(entries[0]["properties"], "content") if entries else None
        record["links"] = bool(content and record["target"] in content.get("html", ""))
        record["name"] = first(entries[0]["properties"], "name") if entries else None

    # MARK: steps

    def steps(self):
        return [
            ("mf2py reads a post page as a complete h-entry", self.entry_step),
            ("webmention sent by ronkyuu (discovery + form POST) → comment", self.receive_step),
            ("mf2py reads the comment as a nested h-entry", self.nested_step),
            ("post linking out → webmention verified by an mf2py receiver", self.send_step),
        ]

    async def post_entry(self, path: str):
        status, html = await self.blog.get(path)
        expect(status == 200, f"GET {path} answered {status}")
        parsed = mf2py.parse(doc=html, url=self.blog.base + path, html_parser="html5lib")
        entries = [item for item in parsed["items"] if "h-entry" in item["type"]]
        expect(len(entries) == 1, f"{len(entries)} top-level h-entries on {path}: {parsed['items']}")
        return entries[0], parsed

    async def entry_step(self):
        path = "/2025/welcome-to-lectern/"
        entry, parsed = await self.post_entry(path)
        properties = entry["properties"]
        for name in ("name", "content", "published", "url", "author"):
            expect(first(properties, name), f"the h-entry has no {name}: {sorted(properties)}")
        expect(first(properties, "url") == self.blog.base + path, f"u-url is {first(properties, 'url')}")
        author = first(properties, "author")
        expect(isinstance(author, dict) and "h-card" in author["type"], f"the author is not an h-card: {author}")
        expect(first(author["properties"], "name") and first(author["properties"], "url") == self.blog.base + "/",
               f"the author h-card lacks a name or url: {author['properties']}")
        endpoints = parsed["rels"].get("webmention")
        expect(endpoints == [self.blog.base + "/webmention"], f"rel=webmention is {endpoints}")
        return (f"name {first(properties, 'name')!r}, published {first(properties, 'published')}, author "
                f"{first(author['properties'], 'name')!r}; rel=webmention {endpoints[0]}")

    async def receive_step(self):
        self.target_post = self.blog.base + "/2025/welcome-to-lectern/"
        source = self.base + "/reply"
        endpoint = await asyncio.to_thread(ronkyuu.discoverEndpoint, self.target_post, test_urls=False)
        expect(endpoint and endpoint[1] == self.blog.base + "/webmention", f"ronkyuu discovered {endpoint}")
        result = await asyncio.to_thread(ronkyuu.sendWebmention, source, self.target_post, test_urls=False)
        expect(result is not None and getattr(result, "status_code", 0) == 202,
               f"ronkyuu's webmention answered {getattr(result, 'status_code', result)}")
        held, waited, _ = await self.blog.page_until("/2025/welcome-to-lectern/",
                                                     lambda html: "Sent by ronkyuu" in html, timeout=10)
        expect(held, f"the comment did not appear within 10 s\n{self.blog.log_tail(10)}")
        return f"discovered {endpoint[1]}, 202, comment on the page after {waited:.1f} s"

    async def nested_step(self):
        entry, _ = await self.post_entry("/2025/welcome-to-lectern/")
        comments = entry["properties"].get("comment") or []
        replies = [c for c in comments if isinstance(c, dict) and "h-entry" in c["type"]]
        expect(replies, f"no nested h-entry comment: {entry['properties'].keys()}")
        reply = replies[-1]["properties"]
        author = first(reply, "author")
        expect(author and first(author["properties"], "name") == "Ronkyuu Reader", f"comment author {author}")
        expect("Sent by ronkyuu" in first(reply, "content")["value"], f"comment content {first(reply, 'content')}")
        expect(first(reply, "in-reply-to") == self.target_post, f"in-reply-to {first(reply, 'in-reply-to')}")
        expect(first(reply, "published") and first(reply, "url"), f"comment lacks published or url: {sorted(reply)}")
        return f"{len(replies)} comment(s) as p-comment h-entry, author {first(author['properties'], 'name')!r}"

    async def send_step(self):
        now = datetime.now(timezone.utc).replace(microsecond=0)
        slug = f"linking-{int(time.time())}"
        (self.blog.root / "content" / "posts" / f"{now:%Y-%m-%d}-{slug}.md").write_text(
            f"---\ntitle: Linking out\ndate: {now:%Y-%m-%dT%H:%M:%SZ}\nslug: {slug}\n---\n\n"
            f"I read [an article]({self.base}/article) today.\n")
        source = f"{self.blog.base}/{now:%Y}/{slug}/"
        await self.blog.run("publish")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not any("links" in r for r in self.received):
            await asyncio.sleep(0.2)
        expect(self.received, f"no webmention reached the receiver within 20 s\n{self.blog.log_tail(15)}")
        record = self.received[0]
        expect(record["source"] == source and record["target"] == self.base + "/article", f"received {record}")
        expect(record["content_type"].startswith("application/x-www-form-urlencoded"), f"content type {record['content_type']}")
        expect(record.get("links") is True, f"mf2py found no link to the target in the source's e-content: {record}")
        expect(len(self.received) == 1, f"{len(self.received)} webmentions, expected one")
        return f"one webmention {source} → /article; mf2py found the h-entry {record['name']!r} linking to it"
