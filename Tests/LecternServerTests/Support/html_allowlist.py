#!/usr/bin/env python3
"""Reads HTML documents (one per file argument) and parses each with html5lib, a WHATWG HTML5
parser, the way a browser would. Prints one line per violation and exits 1 if there is any:
- anywhere: an `on*` attribute, or a URL attribute with a javascript:, data: or vbscript: scheme
  (after the whitespace and control characters browsers ignore);
- inside the comments section (`section#comments`): an element or attribute outside the
  allowlist of what the theme and the HTML sanitizer produce.
"""
import sys
import html5lib

COMMENT_ELEMENTS = {
    "section", "h2", "p", "span", "ol", "li", "header", "img", "a", "bdi", "time", "details", "summary", "div",
    "br", "em", "strong", "b", "i", "u", "s", "del", "code", "pre", "blockquote", "ul", "form", "label", "input",
    "button", "figure", "figcaption", "nav", "small", "video", "audio", "source", "meter",
}
COMMENT_ATTRIBUTES = {
    "class", "id", "href", "rel", "src", "alt", "width", "height", "loading", "referrerpolicy", "datetime",
    "aria-labelledby", "data-comments", "title", "lang", "dir", "decoding", "method", "action", "name", "type",
    "placeholder", "required", "pattern", "autocomplete", "for", "value", "hidden", "open", "controls", "preload",
    "min", "max", "aria-label", "aria-hidden", "inputmode", "autocapitalize", "spellcheck", "maxlength",
}
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "poster", "cite", "background", "srcset", "data", "xlink:href"}
BAD_SCHEMES = ("javascript:", "data:", "vbscript:")


def scheme_of(value):
    cleaned = "".join(ch for ch in value if ord(ch) > 0x20 and ord(ch) != 0x7F).lower()
    return cleaned


def local(name):
    return name.split("}")[-1] if "}" in name else name


def check(path):
    with open(path, "rb") as handle:
        document = html5lib.parse(handle.read(), treebuilder="etree", namespaceHTMLElements=False)
    problems = []

    def walk(element, in_comments):
        tag = local(element.tag) if isinstance(element.tag, str) else None
        if tag is None:
            return
        attributes = {local(k): v for k, v in element.attrib.items()}
        inside = in_comments or (tag == "section" and attributes.get("id") == "comments")
        for name, value in attributes.items():
            if name.lower().startswith("on"):
                problems.append(f"{path}: <{tag}> has event handler {name}={value!r}")
            if name.lower() in URL_ATTRIBUTES and scheme_of(value).startswith(BAD_SCHEMES):
                problems.append(f"{path}: <{tag} {name}> has a dangerous URL {value!r}")
            if inside and name not in COMMENT_ATTRIBUTES:
                problems.append(f"{path}: <{tag}> in the comments has attribute {name!r} outside the allowlist")
        if inside and tag not in COMMENT_ELEMENTS:
            problems.append(f"{path}: element <{tag}> in the comments is outside the allowlist")
        for child in element:
            walk(child, inside)

    walk(document, False)
    return problems


def main():
    problems = []
    for path in sys.argv[1:]:
        problems.extend(check(path))
    for problem in problems:
        print(problem)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
