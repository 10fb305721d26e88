# Shared by the bench scripts: tools, the release binary, the corpus, and recording results.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK="$ROOT/bench/work"
LECTERN="$ROOT/.build/release/lectern"
RESULTS="$ROOT/bench/RESULTS.md"

need_debs() {
  local missing=()
  for p in "$@"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p"); done
  if [ ${#missing[@]} -gt 0 ]; then
    local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

# Release products are built as `make build` builds lectern (static Swift runtime): mixing flags
# would rebuild everything each time.
release_build() { (cd "$ROOT" && make -s deps && swift build -c release --static-swift-stdlib --product "$1" 2>&1 | tail -1); }
build_lectern() { release_build lectern; }

corpus() {  # corpus N [real-sized] → prints the folder holding lectern/ and hugo/
  local dir="$WORK/c$1${2:+-$2}"
  [ -f "$dir/lectern/lectern.yml" ] || python3 "$ROOT/bench/gen_corpus.py" "$1" "$dir" ${2:+--$2}
  echo "$dir"
}

newcomer_site() {  # → prints a folder made by `lectern init` with 1,000 posts of real size (~12 KB each)
  local site="$WORK/start-1000"
  if [ ! -f "$site/lectern.yml" ]; then
    "$LECTERN" init "$site" >/dev/null
    python3 "$ROOT/bench/gen_real_posts.py" 1000 "$site"
  fi
  echo "$site"
}

# record TITLE COMMAND TABLE_FILE: the table becomes TITLE's current one in RESULTS.md, dated,
# with the command; the one it replaces moves to the history (see bench/results.py).
record() { python3 "$ROOT/bench/results.py" record "$1" "$2" "$3"; }
