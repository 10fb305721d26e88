#!/usr/bin/env python3
"""Keeps bench/RESULTS.md as one current table per benchmark, each with its command and date.

  results.py record TITLE COMMAND TABLE_FILE   TITLE's table becomes this run's (the one it
                                               replaces stays in git's history)
"""
import re
import sys
import datetime
import os

PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "RESULTS.md")
INTRO = """# Benchmark results

All numbers come from the 2-core project machine, with the reference tool (Hugo, nginx,
`openssl speed`) run in the same run: this machine's throughput varies by ±25 % between runs, so
compare numbers within one section only. Each benchmark has one table: its latest run, with
its command and date (`bench/results.py record` replaces it). Earlier runs, and the profiles
that led to each change, are in git's history of this file.
"""
RUN = re.compile(r"^### (bench/.+?) — (\d{4}-\d{2}-\d{2}) on (\d+) cores$")


def load():
    """The current run of each benchmark, by title."""
    text = open(PATH).read() if os.path.exists(PATH) else ""
    runs, current = {}, None
    for line in text.splitlines():
        heading = RUN.match(line)
        if heading:
            current = [heading.group(1), heading.group(2), heading.group(3), []]
            runs[current[0]] = current
        elif current is not None and not line.startswith("## "):
            current[3].append(line)
    return {t: (t, d, c, "\n".join(b).strip("\n")) for t, (_, d, c, b) in runs.items()}


def write(current):
    out = [INTRO, "## Current", ""]
    for title in sorted(current):
        t, d, c, body = current[title]
        out += [f"### {t} — {d} on {c} cores", "", body, ""]
    with open(PATH, "w") as f:
        f.write("\n".join(out).rstrip("\n") + "\n")


def main():
    if sys.argv[1:2] == ["record"] and len(sys.argv) == 5:
        title, command, table = sys.argv[2], sys.argv[3], open(sys.argv[4]).read().strip("\n")
        current = load()
        current[title] = (title, datetime.date.today().isoformat(), str(os.cpu_count()), f"Command: `{command}`\n\n{table}")
        write(current)
    else:
        sys.exit(__doc__)


main()
