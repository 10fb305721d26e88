#!/usr/bin/env python3
"""Measure how much of each item survives `lectern import`.

For every item a `lectern import --json` report says it wrote, this compares three versions
of the body:

  src  the item in the source: the HTML of a WordPress/RSS/Atom/Ghost item, or the Markdown
       body of a Hugo/Jekyll/Zola file (front matter removed);
  md   the Markdown file the importer wrote (front matter removed);
  html the body Lectern rendered for it (`<div class="... e-content">` of the built page),
       when the site was built.

Counted for each: words of prose (outside code), lines of code, code blocks, headings,
footnote references and definitions, images, embeds (iframe/video/audio/object/script),
tables, and template tags (Hugo shortcodes, Liquid/Tera tags, WordPress's own `[shortcodes]`).
The counts are heuristics meant to spot losses, not exact Markdown parsing: fenced and
indented code blocks, ATX and setext headings, `[^x]` footnotes and inline HTML are read;
link destinations, emphasis markers and other punctuation are not words.

Usage:
  measure.py REPORT.json SOURCE SITE [--json] [--lost N] [--only-diff]

REPORT.json is the output of `lectern import SOURCE -s SITE --json`; SOURCE is the same
file or folder. `--lost N` lists, per item, up to N words present in the source but
missing from the imported Markdown. Exit status is 0; differences are data, not errors.
"""

from __future__ import annotations

import argparse
import collections
import html
import json
import os
import re
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

# ---------------------------------------------------------------------------
# Counting HTML

HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
EMBEDS = {"iframe", "video", "audio", "object", "embed", "script"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "param", "source", "track", "wbr"}
WORD = re.compile(r"[\w'’-]*\w[\w'’-]*", re.UNICODE)
TEMPLATE_TAG = re.compile(r"\{\{[<%].*?[%>]\}\}|\{%.*?%\}|\{\{.*?\}\}", re.S)
WP_KNOWN_SHORTCODE = re.compile(r"\[/?(?:caption|wp_caption|gallery|embed|audio|video|playlist|sourcecode|source|code|"
                                r"youtube|vimeo|tweet|googlemaps|soundcloud|spotify|contact-form)\b[^\]\n]*\]")
WP_SHORTCODE = re.compile(r"\[/?[a-z][a-z0-9_-]*(?:\s[^\]\n]*)?\]")


def words(text: str) -> list[str]:
    """Lower-cased word tokens; punctuation, URLs' slashes and markup characters dropped."""
    return [w.strip("'’-").lower() for w in WORD.findall(text) if w.strip("'’-")]


class Counts:
    FIELDS = ["words", "code_lines", "code_blocks", "headings", "fn_refs", "fn_defs",
              "images", "embeds", "tables", "tags"]

    def __init__(self) -> None:
        for field in self.FIELDS:
            setattr(self, field, 0)
        self.word_list: list[str] = []

    def as_dict(self) -> dict[str, int]:
        return {field: getattr(self, field) for field in self.FIELDS}


class HTMLCounter(HTMLParser):
    """Counts an HTML fragment. Footnote markers and back links are not words."""

    def __init__(self, counts: Counts, root_class: str | None = None) -> None:
        super().__init__(convert_charrefs=True)
        self.c = counts
        self.stack: list[tuple[str, dict[str, str]]] = []
        self.pre_depth = 0
        self.skip_depth = 0          # inside script/style or a footnote marker/back link
        self.code_text: list[str] = []
        self.root_class = root_class  # when set, only the element with this class counts
        self.root_depth: int | None = None if root_class else 0

    def _active(self) -> bool:
        return self.root_depth is not None

    def handle_starttag(self, tag, attrs):
        a = {k: (v or "") for k, v in attrs}
        classes = a.get("class", "").split()
        if self.root_depth is None:
            if self.root_class in classes and tag not in VOID:
                self.root_depth = len(self.stack) + 1
                self.stack.append((tag, a))
            elif tag not in VOID:
                self.stack.append((tag, a))
            return
        if tag not in VOID:
            self.stack.append((tag, a))
        if tag == "br" and self.pre_depth > 0:
            self.code_text.append("\n")
        skip = False
        if tag in HEADINGS:
            self.c.headings += 1
        elif tag == "pre":
            if self.pre_depth == 0:
                self.c.code_blocks += 1
                self.code_text = []
            self.pre_depth += 1
        elif tag == "img":
            self.c.images += 1
        elif tag in EMBEDS:
            self.c.embeds += 1
            skip = tag == "script"
        elif tag == "style":
            skip = True
        elif tag == "table":
            self.c.tables += 1
        elif tag == "a" and self._is_backref(a, classes):
            skip = True
        elif tag == "a" and "anchor" in classes:                 # Lectern's heading anchors
            skip = True
        if self._is_fn_ref(tag, a, classes):
            self.c.fn_refs += 1
            skip = True
        if self._is_fn_def(tag, a, classes):
            self.c.fn_defs += 1
        if tag == "sup" and "footnote-definition-label" in classes:
            skip = True
        if skip and tag not in VOID:
            self.skip_depth = max(self.skip_depth, 0) + 1
            self.stack[-1] = (tag, {**a, "__skip": "1"})

    def _is_backref(self, a, classes) -> bool:
        href = a.get("href", "")
        return ("footnote-backref" in classes or "reversefootnote" in classes
                or "data-footnote-backref" in a or "footnote-return" in classes
                or re.match(r"#fnref[-:_]?\w", href) is not None)

    def _is_fn_ref(self, tag, a, classes) -> bool:
        if tag == "a" and self._is_backref(a, classes):
            return False
        if tag == "sup" and ("footnote-ref" in classes or "footnote-reference" in classes):
            return True
        if tag == "a" and ("footnote-ref" in classes or "data-footnote-ref" in a):
            # pandoc puts the class on <a> around <sup>; markdown-it and cmark on <sup> around <a>
            parent = self.stack[-2] if len(self.stack) > 1 else ("", {})
            return not (parent[0] == "sup" and ({"footnote-ref", "footnote-reference"}
                                                & set(parent[1].get("class", "").split())))
        if tag == "a" and re.match(r"#(fn|footnote)[-:_]?\w", a.get("href", "")):
            parent = self.stack[-2] if len(self.stack) > 1 else ("", {})
            parent_classes = set(parent[1].get("class", "").split())
            return not ({"footnote-ref", "footnote-reference"} & parent_classes) and \
                "footnote-ref" not in classes
        return False

    def _is_fn_def(self, tag, a, classes) -> bool:
        if tag == "div" and "footnote-definition" in classes:
            return True
        if tag == "li":
            ident = a.get("id", "")
            return ("footnote-item" in classes or re.match(r"(fn|footnote)[-:_]?\w", ident)
                    is not None) and not ident.startswith("fnref")
        return False

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        # pop to the matching open tag (HTML in the wild is not always balanced)
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                for name, attrs in self.stack[i:]:
                    if attrs.get("__skip"):
                        self.skip_depth -= 1
                    if name == "pre" and self._active():
                        self.pre_depth -= 1
                        if self.pre_depth == 0:
                            self._close_code()
                if self.root_depth is not None and self.root_class and i + 1 <= self.root_depth:
                    self.root_depth = None
                    self.root_class = "\0done"   # count only the first such element
                del self.stack[i:]
                return

    def _close_code(self):
        text = "".join(self.code_text).strip("\n")
        self.c.code_lines += len(text.split("\n")) if text else 0

    def handle_data(self, data):
        if not self._active() or self.skip_depth > 0:
            return
        if self.pre_depth > 0:
            self.code_text.append(data)
            return
        # Inline code is the writer's literal text (`{{ x }}` in a post about templates).
        if not any(name == "code" for name, _ in self.stack):
            self.c.tags += len(TEMPLATE_TAG.findall(data))
            # Brackets in prose (`[misc]`, `[string]`) are words; WordPress's own shortcodes are tags.
            self.c.tags += len(WP_KNOWN_SHORTCODE.findall(data))
        text = WP_SHORTCODE.sub(" ", TEMPLATE_TAG.sub(" ", data))
        found = words(text)
        self.c.words += len(found)
        self.c.word_list += found


def count_html(fragment: str, root_class: str | None = None) -> Counts:
    counts = Counts()
    parser = HTMLCounter(counts, root_class)
    parser.feed(fragment)
    parser.close()
    return counts


# ---------------------------------------------------------------------------
# Counting Markdown

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
ATX = re.compile(r"^ {0,3}#{1,6}(\s|$)")
SETEXT = re.compile(r"^ {0,3}(=+|-+)\s*$")
FN_DEF = re.compile(r"^ {0,3}\[\^[^\]]+\]:")
FN_REF = re.compile(r"\[\^[^\]\s]+\](?!:)")
LIST_ITEM = re.compile(r"^\s*([-*+]|\d+[.)])\s")
HIGHLIGHT_OPEN = re.compile(r"\{\{[<%]\s*highlight\b.*?[%>]\}\}|\{%-?\s*highlight\b.*?%\}")
HIGHLIGHT_CLOSE = re.compile(r"\{\{[<%]\s*/\s*highlight\s*[%>]\}\}|\{%-?\s*endhighlight\s*-?%\}")
REF_DEF = re.compile(r"^ {0,3}\[[^\]^][^\]]*\]:\s*\S+.*$")


def strip_front_matter(text: str) -> str:
    text = text.lstrip("\ufeff")
    for fence in ("---", "+++"):
        if text.startswith(fence + "\n") or text.startswith(fence + "\r\n"):
            end = re.search(r"^" + re.escape(fence) + r"\s*$", text[len(fence) + 1:], re.M)
            if end:
                return text[len(fence) + 1 + end.end():]
    if text.startswith("{"):
        depth = 0
        for i, ch in enumerate(text):
            depth += ch == "{"
            depth -= ch == "}"
            if depth == 0:
                return text[i + 1:]
    return text


def markdown_inline_text(line: str) -> str:
    """The visible text of a Markdown line (approximate)."""
    line = re.sub(r"`+([^`]*)`+", lambda m: " " + html.escape(m.group(1)) + " ", line)  # code spans: text
    line = re.sub(r"!\[([^\]]*)\]\([^)]*\)", " ", line)            # images: alt is not text
    line = re.sub(r"\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)", r" \1 ", line)  # links: text
    line = re.sub(r"\[([^\]]*)\]\[[^\]]*\]", r" \1 ", line)         # reference links
    line = re.sub(r"<(https?://[^>]+)>", r" \1 ", line)             # autolinks
    line = re.sub(r"\\(.)", r"\1", line)                            # escapes
    line = re.sub(r"^\s*(>\s*)+", "", line)                         # block quotes
    line = re.sub(r"^\s*([-*+]|\d+[.)])\s+(\[[ xX]\]\s+)?", "", line)  # list markers
    line = re.sub(r"^\s*#{1,6}\s*|\s+#+\s*$", "", line)              # heading marks
    return line


def count_markdown(text: str) -> Counts:
    counts = Counts()
    lines = strip_front_matter(text).replace("\r\n", "\n").split("\n")
    prose: list[str] = []
    fence: str | None = None
    in_highlight = False
    code_lines = 0
    prev_blank = True
    prev_kind = "blank"    # blank, list, text, code
    raw_pre = False
    pending_blank_code = 0
    for i, line in enumerate(lines):
        if raw_pre or (fence is None and not in_highlight and re.match(r"^ {0,3}<pre[\s>]", line)):
            raw_pre = "</pre>" not in line
            prose.append(line)
            continue
        if fence is not None:
            if re.match(r"^ {0,3}" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}\s*$", line):
                fence = None
            else:
                code_lines += 1
            prev_blank, prev_kind = False, "code"
            continue
        if in_highlight:
            if HIGHLIGHT_CLOSE.search(line):
                in_highlight = False
            else:
                code_lines += 1
            continue
        m = FENCE.match(line)
        if m and not (m.group(1)[0] == "`" and "`" in line[m.end():]):
            fence = m.group(1)
            counts.code_blocks += 1
            continue
        if HIGHLIGHT_OPEN.search(line) and not HIGHLIGHT_CLOSE.search(line):
            in_highlight = True
            counts.code_blocks += 1
            counts.tags += 1
            continue
        if not line.strip():
            if prev_kind == "code":
                pending_blank_code += 1     # blank lines inside an indented block
            prev_blank, prev_kind = True, (prev_kind if prev_kind in ("list", "code") else "blank")
            continue
        indented = line.startswith("    ") or line.startswith("\t")
        if indented and prev_kind == "code":
            code_lines += 1 + pending_blank_code
            pending_blank_code = 0
            prev_blank = False
            continue
        pending_blank_code = 0
        if indented and prev_kind == "blank" and prev_blank:
            counts.code_blocks += 1
            code_lines += 1
            prev_blank, prev_kind = False, "code"
            continue
        if ATX.match(line):
            counts.headings += 1
        elif SETEXT.match(line) and not prev_blank and prev_kind == "text" \
                and not LIST_ITEM.match(lines[i - 1]) and not re.match(r"^\s*-{3,}\s*$", lines[i - 1]):
            counts.headings += 1
            prev_blank, prev_kind = False, "text"
            continue
        if FN_DEF.match(line):
            counts.fn_defs += 1
            line = re.sub(r"^ {0,3}\[\^[^\]]+\]:", "", line)
        if REF_DEF.match(line):
            prev_blank, prev_kind = False, "text"
            continue
        counts.fn_refs += len(FN_REF.findall(line))
        line = FN_REF.sub(" ", line)
        if LIST_ITEM.match(line):
            prev_kind = "list"
        elif prev_kind != "list" or prev_blank:
            prev_kind = "text"
        prev_blank = False
        counts.images += len(re.findall(r"!\[[^\]]*\]\(", line))
        if re.match(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)+\|?\s*$", line):
            counts.tables += 1
            continue
        tags = TEMPLATE_TAG.findall(line)
        counts.tags += len(tags)
        line = TEMPLATE_TAG.sub(" ", line)
        prose.append(markdown_inline_text(line).replace("|", " "))
    counts.code_lines += code_lines
    # Inline and block HTML inside the Markdown: count it with the HTML counter.
    inline = count_html("\n".join(prose))
    for field in ("words", "code_lines", "code_blocks", "headings", "fn_refs", "fn_defs",
                  "images", "embeds", "tables", "tags"):
        setattr(counts, field, getattr(counts, field) + getattr(inline, field))
    counts.word_list = inline.word_list
    return counts


# ---------------------------------------------------------------------------
# Reading sources

def local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def ns(tag: str) -> str:
    return tag[1:].split("}", 1)[0] if tag.startswith("{") else ""


def forgive_xml(text: str) -> str:
    """What real exports get wrong: HTML entity names and bare ampersands outside CDATA."""
    parts = re.split(r"(<!\[CDATA\[.*?\]\]>)", text, flags=re.S)
    for i in range(0, len(parts), 2):
        part = re.sub(r"&(?!#\d+;|#x[0-9a-fA-F]+;|(?:amp|lt|gt|quot|apos);)([A-Za-z][A-Za-z0-9]*;)?",
                      lambda m: (f"&#{ord(html.unescape('&' + m.group(1)))};"
                                 if m.group(1) and len(html.unescape("&" + m.group(1))) == 1
                                 else "&amp;" + (m.group(1) or "")), parts[i])
        parts[i] = re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", "", part)
    return "".join(parts)


def feed_items(path: str) -> dict[str, tuple[str, str]]:
    """Items of a WordPress export, RSS or Atom feed: key (link/guid/id) -> (format, body)."""
    items: dict[str, tuple[str, str]] = {}
    raw = open(path, "rb").read()
    try:
        root = ET.fromstring(raw)
    except ET.ParseError:
        root = ET.fromstring(forgive_xml(raw.decode("utf-8", errors="replace")))
    for item in root.iter():
        if local(item.tag) not in ("item", "entry"):
            continue
        keys: list[str] = []
        body = fallback = None
        for child in item:
            cname, cns = local(child.tag), ns(child.tag)
            text = child.text or ""
            if cname in ("link", "guid", "id"):
                if child.get("href") and child.get("rel", "alternate") == "alternate":
                    keys.append(child.get("href").strip())
                if text.strip():
                    keys.append(text.strip())
            elif cname == "encoded" and "content" in cns:
                body = text
            elif cname == "content" and "Atom" in cns or cname == "content" and not cns:
                if child.get("type") == "xhtml":
                    body = "".join(ET.tostring(c, encoding="unicode") for c in child)
                else:
                    body = text
            elif cname in ("description", "summary"):
                fallback = text
        for key in keys:
            items.setdefault(key, ("html", body if body is not None else fallback or ""))
    return items


def ghost_items(path: str) -> dict[str, tuple[str, str]]:
    data = json.load(open(path, encoding="utf-8"))
    if "db" in data:
        data = data["db"][0]
    posts = data.get("data", data).get("posts", [])
    items = {}
    for post in posts:
        body = post.get("html") or ""
        for key in (post.get("slug"), post.get("id"), post.get("uuid"), post.get("title")):
            if key:
                items[str(key)] = ("html", body)
    return items


def read_source(report: dict, source: str) -> dict[str, tuple[str, str]]:
    kind = report.get("kind")
    if kind in ("wordpress", "rss", "atom"):
        return feed_items(source)
    if kind == "ghost":
        return ghost_items(source)
    return {}  # site folders: read per item from the origin path


def source_body(kind: str, source: str, items: dict, item: dict) -> tuple[str, str] | None:
    origin = item.get("origin", "")
    if kind in ("hugo", "jekyll", "zola", "eleventy"):
        path = origin if os.path.isabs(origin) else os.path.join(source, origin)
        if not os.path.isfile(path):
            return None
        fmt = "html" if path.endswith((".html", ".htm")) else "markdown"
        text = open(path, encoding="utf-8", errors="replace").read()
        return fmt, (strip_front_matter(text) if fmt == "html" else text)
    for key in (origin, origin.rstrip("/"), origin + "/", item.get("title", "")):
        if key in items:
            return items[key]
    slug = origin.rstrip("/").rsplit("/", 1)[-1]
    return items.get(slug)


def rendered_body(site: str, url: str | None) -> str | None:
    if not url:
        return None
    path = os.path.join(site, "public", url.strip("/"), "index.html")
    if not os.path.isfile(path):
        return None
    return open(path, encoding="utf-8", errors="replace").read()


def count(fmt: str, body: str) -> Counts:
    return count_markdown(body) if fmt == "markdown" else count_html(body)


# ---------------------------------------------------------------------------

def measure(report_path: str, source: str, site: str, lost: int) -> list[dict]:
    report = json.load(open(report_path, encoding="utf-8"))
    kind = report.get("kind", "")
    items = read_source(report, source)
    rows = []
    for item in report.get("items", []):
        if item.get("outcome") not in ("post", "page") or not item.get("file"):
            continue
        row: dict = {"file": item["file"], "title": item.get("title", ""),
                     "origin": item.get("origin", "")}
        src = source_body(kind, source, items, item)
        md_path = os.path.join(site, item["file"])
        md = open(md_path, encoding="utf-8").read() if os.path.isfile(md_path) else None
        page = rendered_body(site, item.get("url"))
        src_c = count(*src) if src else None
        md_c = count_markdown(md) if md is not None else None
        html_c = None
        if page:
            html_c = count_html(page, "e-content" if "e-content" in page else "content")
        row["src"] = src_c.as_dict() if src_c else None
        row["md"] = md_c.as_dict() if md_c else None
        row["html"] = html_c.as_dict() if html_c else None
        if src_c and md_c and lost:
            missing = collections.Counter(src_c.word_list) - collections.Counter(md_c.word_list)
            row["lost_words"] = [w for w, _ in missing.most_common(lost)]
            row["lost_word_count"] = sum(missing.values())
        if src_c and html_c:
            missing = collections.Counter(src_c.word_list) - collections.Counter(html_c.word_list)
            row["lost_in_html"] = sum(missing.values())
        rows.append(row)
    return rows


def differs(row: dict) -> list[str]:
    """Fields where the imported or rendered body falls short of (or exceeds) the source."""
    out = []
    src = row.get("src")
    if not src:
        return ["no source body found"]
    for stage in ("md", "html"):
        other = row.get(stage)
        if not other:
            continue
        for field in Counts.FIELDS:
            a, b = src[field], other[field]
            if field == "words":
                if a and abs(a - b) > max(2, a * 0.02):
                    out.append(f"{stage}.words {a}->{b}")
            elif field == "tags":
                if stage == "html" and b:
                    out.append(f"html.tags {a}->{b}")
            elif a != b:
                out.append(f"{stage}.{field} {a}->{b}")
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("report")
    ap.add_argument("source")
    ap.add_argument("site")
    ap.add_argument("--json", action="store_true", help="print rows as JSON")
    ap.add_argument("--lost", type=int, default=8, help="lost words listed per item")
    ap.add_argument("--only-diff", action="store_true", help="print only items that differ")
    args = ap.parse_args(argv)
    rows = measure(args.report, args.source, args.site, args.lost)
    for row in rows:
        row["differs"] = differs(row)
    if args.json:
        json.dump(rows, sys.stdout, indent=1, ensure_ascii=False)
        print()
        return 0
    for row in rows:
        if args.only_diff and not row["differs"]:
            continue
        print(f"{row['file']}")
        for stage in ("src", "md", "html"):
            if row.get(stage):
                print(f"  {stage:4} " + " ".join(f"{k}={v}" for k, v in row[stage].items()))
        if row["differs"]:
            print("  DIFF " + "; ".join(row["differs"]))
        if row.get("lost_words"):
            print(f"  lost {row['lost_word_count']} words, e.g. {' '.join(row['lost_words'])}")
    print(f"\n{len(rows)} items; {sum(1 for r in rows if r['differs'])} differ")
    for stage in ("md", "html"):
        both = [r for r in rows if r.get("src") and r.get(stage)]
        if not both:
            print(f"  {stage}: none to compare")
            continue
        for name in ("src", stage):
            total = collections.Counter()
            for r in both:
                total.update(r[name])
            print(f"  {len(both):3} items, {name:4} " + " ".join(f"{k}={total.get(k, 0)}" for k in Counts.FIELDS))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
