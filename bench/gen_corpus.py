#!/usr/bin/env python3
"""Writes the same N-post corpus as a Lectern site and as a Hugo site.

Posts have code blocks, tables, footnotes, tags and a category, about 600 words each, so
both generators do comparable Markdown work; with --real-sized, the posts real blogs have
(about 12 KB each, five sections, code in five languages: gen_real_posts.py).
Usage: gen_corpus.py N OUT_DIR [--real-sized]
"""
import os, random, sys, textwrap

WORDS = ("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut "
         "labore et dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris "
         "nisi aliquip ex ea commodo consequat federation server swift markdown static blog").split()
TAGS = [f"tag{i}" for i in range(40)]
CATEGORIES = ["Essays", "Notes", "Guides", "Links", "Travel"]


def paragraph(rng, words=60):
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


def body(rng, i):
    parts = [paragraph(rng), "<!-- more -->" if i % 3 == 0 else paragraph(rng, 30)]
    parts.append(f"## Section {i}\n\n{paragraph(rng)} A note.[^1] *Emphasis* and **strong** and `code`.")
    parts.append("```swift\nfunc f(_ x: Int) -> Int {\n    return x * 2 // double\n}\nprint(f(21))\n```")
    parts.append("| Name | Value | Notes |\n|:-----|------:|-------|\n"
                 + "\n".join(f"| row{r} | {r * i} | {rng.choice(WORDS)} |" for r in range(5)))
    parts.append(f"### Details\n\n{paragraph(rng, 80)}\n\n- item one\n- item two\n- [x] done")
    parts.append(f"> {paragraph(rng, 25)}")
    parts.append(paragraph(rng, 120))
    parts.append(f"[^1]: Footnote for post {i}.")
    return "\n\n".join(parts) + "\n"


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    make_body = body
    if "--real-sized" in sys.argv[3:]:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import gen_real_posts
        make_body = gen_real_posts.body
    rng = random.Random(42)
    lectern = os.path.join(out, "lectern")
    hugo = os.path.join(out, "hugo")
    os.makedirs(os.path.join(lectern, "content/posts"), exist_ok=True)
    os.makedirs(os.path.join(hugo, "content/posts"), exist_ok=True)
    with open(os.path.join(lectern, "lectern.yml"), "w") as f:
        f.write("title: Bench\nbaseURL: https://bench.example\nauthor: Bench\npostsPerPage: 10\nfeedSize: 20\n")
    for i in range(n):
        day = 1 + i % 28
        month = 1 + (i // 28) % 12
        year = 2000 + i // 336
        date = f"{year}-{month:02d}-{day:02d}T{i % 24:02d}:00:00Z"
        tags = sorted(set(rng.sample(TAGS, 3)))
        category = CATEGORIES[i % len(CATEGORIES)]
        text = make_body(rng, i)
        title = f"Post number {i}: {rng.choice(WORDS)} {rng.choice(WORDS)}"
        with open(os.path.join(lectern, f"content/posts/p{i:05d}.md"), "w") as f:
            f.write(f"---\ntitle: \"{title}\"\ndate: {date}\nslug: post-{i}\ncategory: {category}\n"
                    f"tags: [{', '.join(tags)}]\n---\n\n{text}")
        with open(os.path.join(hugo, f"content/posts/p{i:05d}.md"), "w") as f:
            f.write(f"---\ntitle: \"{title}\"\ndate: {date}\nslug: post-{i}\ncategories: [{category}]\n"
                    f"tags: [{', '.join(tags)}]\n---\n\n{text}")
    write_hugo_site(hugo)


def write_hugo_site(root):
    """A minimal Hugo theme producing the same page set: posts, paginated home, category and
    tag lists, RSS for home and categories, sitemap, 404."""
    files = {
        "config.toml": textwrap.dedent("""\
            baseURL = "https://bench.example/"
            title = "Bench"
            paginate = 10
            disableKinds = []
            [permalinks]
              posts = "/:year/:slug/"
            [taxonomies]
              category = "categories"
              tag = "tags"
            [outputs]
              home = ["HTML", "RSS", "JSON"]
              taxonomy = ["HTML"]
              term = ["HTML", "RSS"]
            [markup.goldmark.renderer]
              unsafe = true
            [markup.goldmark.extensions]
              typographer = true
            """),
        "layouts/_default/baseof.html": "<!doctype html><html><head><title>{{ .Title }}</title>"
            "<link rel=\"canonical\" href=\"{{ .Permalink }}\"></head><body>{{ block \"main\" . }}{{ end }}</body></html>\n",
        "layouts/_default/single.html": "{{ define \"main\" }}<article><h1>{{ .Title }}</h1>"
            "<time>{{ .Date.Format \"2 January 2006\" }}</time> {{ .ReadingTime }} min{{ .Content }}"
            "{{ range .Params.tags }}<a href=\"/tags/{{ . | urlize }}/\">#{{ . }}</a>{{ end }}</article>"
            "{{ with .PrevInSection }}<a href=\"{{ .RelPermalink }}\">{{ .Title }}</a>{{ end }}"
            "{{ with .NextInSection }}<a href=\"{{ .RelPermalink }}\">{{ .Title }}</a>{{ end }}{{ end }}\n",
        "layouts/_default/list.html": "{{ define \"main\" }}<h1>{{ .Title }}</h1>"
            "{{ $pages := .Pages }}{{ if .IsHome }}{{ $pages = where .Site.RegularPages \"Section\" \"posts\" }}{{ end }}"
            "{{ $p := .Paginate $pages }}"
            "{{ range $p.Pages }}<article><h2><a href=\"{{ .RelPermalink }}\">{{ .Title }}</a></h2>"
            "{{ .Summary }}</article>{{ end }}"
            "{{ with $p.Prev }}<a href=\"{{ .URL }}\">newer</a>{{ end }}{{ with $p.Next }}<a href=\"{{ .URL }}\">older</a>{{ end }}{{ end }}\n",
        "layouts/_default/terms.html": "{{ define \"main\" }}<ul>{{ range .Data.Terms.Alphabetical }}"
            "<li><a href=\"{{ .Page.RelPermalink }}\">{{ .Page.Title }}</a> {{ .Count }}</li>{{ end }}</ul>{{ end }}\n",
        "layouts/index.json": "{{ $items := slice }}{{ range first 20 .Site.RegularPages }}"
            "{{ $items = $items | append (dict \"id\" .Permalink \"title\" .Title \"content_html\" .Content) }}{{ end }}"
            "{{ dict \"version\" \"https://jsonfeed.org/version/1.1\" \"items\" $items | jsonify }}\n",
        "layouts/404.html": "{{ define \"main\" }}<h1>Not found</h1>{{ end }}\n",
    }
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
