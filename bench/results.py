#!/usr/bin/env python3
"""Keeps bench/RESULTS.md as one current table per benchmark at the top and older runs below.

  results.py record TITLE COMMAND TABLE_FILE   adds a run: it becomes TITLE's current table, and
                                               the table it replaces moves to the history
  results.py reorganize                        sorts a file of runs appended in time order into
                                               that shape (once; it refuses an organized file)
"""
import re
import sys
import datetime
import os

PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "RESULTS.md")
INTRO = """# Benchmark results

All numbers come from the 2-core project machine, with the reference tool (Hugo, nginx,
`openssl speed`) run in the same run: this machine's throughput varies by ±25 % between runs, so
compare numbers within one section only. **Current** holds the latest run of each benchmark
(`bench/results.py` moves the one it replaces to **History**, newest first).
"""
RUN = re.compile(r"^### (bench/\S+) — (\d{4}-\d{2}-\d{2}) on (\d+) cores$")


def parse(text):
    """Every run in the file: (title, date, cores, body) in file order."""
    runs, current = [], None
    for line in text.splitlines():
        heading = RUN.match(line) or re.match(r"^## (bench/\S+) — (\d{4}-\d{2}-\d{2}) on (\d+) cores$", line)
        if heading:
            current = [heading.group(1), heading.group(2), heading.group(3), []]
            runs.append(current)
        elif current is not None and not line.startswith("## "):
            current[3].append(line)
    return [(t, d, c, "\n".join(b).strip("\n")) for t, d, c, b in runs]


def profiles():
    """The hand-written `## Profiles` section at the end, kept as it is."""
    text = open(PATH).read() if os.path.exists(PATH) else ""
    _, found, rest = text.partition("\n## Profiles")
    return found.strip("\n") + rest if found else ""


def write(current, history):
    kept = profiles()
    out = [INTRO, "## Current", ""]
    for title in sorted(current):
        t, d, c, body = current[title]
        out += [f"### {t} — {d} on {c} cores", "", body, ""]
    out += ["## History", ""]
    for t, d, c, body in history:
        out += [f"### {t} — {d} on {c} cores", "", body, ""]
    if kept:
        out += [kept]
    with open(PATH, "w") as f:
        f.write("\n".join(out).rstrip("\n") + "\n")


def split(runs):
    """The last run of each title is current; the others are history, newest first."""
    current, history = {}, []
    for run in runs:
        if run[0] in current:
            history.append(current[run[0]])
        current[run[0]] = run
    history.reverse()
    return current, history


def load():
    """The current runs by title, and the history, from a file in this shape."""
    text = open(PATH).read() if os.path.exists(PATH) else ""
    head, _, rest = text.partition("\n## History")
    rest = rest.partition("\n## Profiles")[0]
    current, pushed = split(parse(head))
    return current, pushed + parse(rest)


def main():
    if sys.argv[1:2] == ["reorganize"]:
        text = open(PATH).read()
        if "\n## Current" in text:
            sys.exit("RESULTS.md is already organized; reorganize reads runs appended in time order")
        current, history = split(parse(text.partition("\n## Profiles")[0]))
        history.sort(key=lambda run: run[1], reverse=True)  # stable: same-day runs keep their order
        write(current, history)
    elif sys.argv[1:2] == ["record"] and len(sys.argv) == 5:
        title, command, table = sys.argv[2], sys.argv[3], open(sys.argv[4]).read().strip("\n")
        current, history = load()
        if title in current:
            history.insert(0, current[title])
        current[title] = (title, datetime.date.today().isoformat(), str(os.cpu_count()), f"Command: `{command}`\n\n{table}")
        write(current, history)
    else:
        sys.exit(__doc__)


main()
