#!/usr/bin/env python3
"""Adds N posts of the size real blogs have (about 12 KB of Markdown each, the seed blog's
average: five sections with code blocks in five languages, tables, footnotes, task lists and
quotes) to SITE_DIR/content/posts. Usage: gen_real_posts.py N SITE_DIR"""
import os, random, sys
WORDS = ("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut "
         "labore et dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris "
         "nisi aliquip ex ea commodo consequat federation server swift markdown static blog").split()
TAGS = [f"tag{i}" for i in range(40)]
CATS = ["Essays", "Notes", "Guides", "Links", "Travel"]
CODE = {
 "swift": "struct Point {\n    var x: Double, y: Double\n    func distance(to other: Point) -> Double {\n        let dx = x - other.x, dy = y - other.y // delta\n        return (dx * dx + dy * dy).squareRoot()\n    }\n}\nlet items = [1, 2, 3].map { $0 * 2 }\nprint(\"total: \\(items.reduce(0, +))\")\n",
 "python": "import os, sys\n\ndef walk(root):\n    \"\"\"Yield every file.\"\"\"\n    for d, _, files in os.walk(root):\n        for f in files:\n            yield os.path.join(d, f)  # path\n\nif __name__ == '__main__':\n    print(sum(1 for _ in walk(sys.argv[1])))\n",
 "javascript": "const fetchAll = async (urls) => {\n  const out = [];\n  for (const u of urls) {\n    const r = await fetch(u, { headers: { Accept: 'application/json' } });\n    out.push(await r.json()); // collect\n  }\n  return out;\n};\nexport default fetchAll;\n",
 "rust": "use std::collections::HashMap;\n\nfn count(words: &[&str]) -> HashMap<&str, usize> {\n    let mut m = HashMap::new();\n    for w in words { *m.entry(*w).or_insert(0) += 1; }\n    m\n}\n\nfn main() { println!(\"{:?}\", count(&[\"a\", \"b\", \"a\"])); }\n",
 "bash": "#!/usr/bin/env bash\nset -euo pipefail\nfor f in \"$@\"; do\n  if [ -f \"$f\" ]; then\n    wc -l \"$f\" | awk '{print $1}'  # lines\n  fi\ndone\n",
}
def para(rng, n=60): return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."
def body(rng, i):
    p = [para(rng), "<!-- more -->", para(rng, 40)]
    langs = list(CODE)
    for s in range(5):
        p.append(f"## Section {s + 1} of post {i}\n\n{para(rng, 90)} A note.[^{s+1}] *Emphasis*, **strong**, `inline code` and a [link](/about/).")
        lang = langs[(i + s) % len(langs)]
        p.append(f"```{lang}\n{CODE[lang]}```")
        p.append(para(rng, 70))
        if s % 2 == 0:
            p.append("| Name | Value | Notes |\n|:-----|------:|-------|\n" + "\n".join(f"| row{r} | {r * i} | {rng.choice(WORDS)} |" for r in range(6)))
        p.append(f"### Details {s}\n\n{para(rng, 60)}\n\n- item one\n- item two with `code`\n- [x] done\n\n> {para(rng, 25)}")
    p.append(para(rng, 120))
    for s in range(5): p.append(f"[^{s+1}]: Footnote {s+1} for post {i}.")
    return "\n\n".join(p) + "\n"
if __name__ == "__main__":
    n, site = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(42)
    d = os.path.join(site, "content/posts"); os.makedirs(d, exist_ok=True)
    for i in range(n):
        date = f"{2000 + i // 336}-{1 + (i // 28) % 12:02d}-{1 + i % 28:02d}T{i % 24:02d}:00:00Z"
        tags = sorted(set(rng.sample(TAGS, 3)))
        with open(os.path.join(d, f"p{i:05d}.md"), "w") as f:
            f.write(f"---\ntitle: \"Post number {i}: {rng.choice(WORDS)} {rng.choice(WORDS)}\"\ndate: {date}\nslug: post-{i}\n"
                    f"category: {CATS[i % 5]}\ntags: [{', '.join(tags)}]\n---\n\n{body(rng, i)}")
