#!/bin/sh
# First run: create the site with the public address it will have; then serve it.
set -eu
SITE=/var/lib/lectern
if [ ! -f "$SITE/lectern.yml" ]; then
  if [ -z "${LECTERN_BASE_URL:-}" ] && [ "${LECTERN_DEMO:-}" != 1 ]; then
    echo "error: set LECTERN_BASE_URL=https://your.domain for the blog's public address (or LECTERN_DEMO=1 to try it locally)" >&2
    exit 64
  fi
  lectern init "$SITE"
  if [ -n "${LECTERN_BASE_URL:-}" ]; then
    sed -i "s#^baseURL:.*#baseURL: ${LECTERN_BASE_URL}#" "$SITE/lectern.yml"
  fi
fi
if grep -q '^baseURL: http://127.0.0.1:8080' "$SITE/lectern.yml" && [ "${LECTERN_DEMO:-}" != 1 ]; then
  echo "error: $SITE/lectern.yml still has the demo baseURL http://127.0.0.1:8080; set your public https address (or LECTERN_DEMO=1)" >&2
  exit 64
fi
exec lectern serve --site "$SITE" --host 0.0.0.0
