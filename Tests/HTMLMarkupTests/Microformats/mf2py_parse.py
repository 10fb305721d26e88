"""Parses every HTML file named on the command line with mf2py; prints {file name: items} as JSON.
Base URL http://example.com/ (what the suite's cases assume). Used by MicroformatsDifferentialTests."""
import json, os, sys
import mf2py

result = {}
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as handle:
        parsed = mf2py.parse(doc=handle.read(), url="http://example.com/", html_parser="html5lib", metaformats=False)
    result[os.path.basename(path)] = parsed["items"]
json.dump(result, sys.stdout)
