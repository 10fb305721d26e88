"""Reads a JSON array of JSON texts on stdin; prints a JSON array of their RFC 8785 canonical
forms (base64), made by Trail of Bits' `rfc8785` (PyPI), the reference for
CanonicalJSONDifferentialTests."""
import base64, json, sys

import rfc8785

texts = json.load(sys.stdin)
print(json.dumps([base64.b64encode(rfc8785.dumps(json.loads(text))).decode() for text in texts]))
