#!/usr/bin/env bash
# Backs up a Lectern site while it runs: a consistent copy of the database (SQLite's online
# backup API, safe with WAL and a live server), the keys, the configuration and the sources.
# public/ is not saved: `lectern build` recreates it.
#   deploy/backup.sh /srv/blog /var/backups/lectern        → lectern-YYYYmmdd-HHMMSS.tar.gz
#   restore: tar -xzf lectern-….tar.gz -C /srv/blog && lectern build -s /srv/blog
set -euo pipefail
SITE=${1:?usage: backup.sh SITE_DIR BACKUP_DIR [KEEP]}
DEST=${2:?usage: backup.sh SITE_DIR BACKUP_DIR [KEEP]}
KEEP=${3:-14}   # archives to keep
[ -f "$SITE/lectern.yml" ] || { echo "error: $SITE has no lectern.yml" >&2; exit 1; }
umask 077       # the archive holds the private keys
mkdir -p "$DEST"
STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
mkdir -p "$STAGE/data"
if [ -f "$SITE/data/lectern.sqlite" ]; then
  python3 - "$SITE/data/lectern.sqlite" "$STAGE/data/lectern.sqlite" <<'PY'
import sqlite3, sys
source = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
target = sqlite3.connect(sys.argv[2])
source.backup(target)
ok = target.execute("PRAGMA integrity_check").fetchone()[0]
target.close()
sys.exit(0 if ok == "ok" else f"integrity check of the copy failed: {ok}")
PY
fi
[ -d "$SITE/data/keys" ] && cp -a "$SITE/data/keys" "$STAGE/data/keys"
for item in lectern.yml content theme static; do
  [ -e "$SITE/$item" ] && cp -a "$SITE/$item" "$STAGE/"
done
NAME="lectern-$(date -u +%Y%m%d-%H%M%S).tar.gz"
tar -czf "$DEST/$NAME.partial" -C "$STAGE" .
mv "$DEST/$NAME.partial" "$DEST/$NAME"
echo "$DEST/$NAME"
# Keep the newest $KEEP archives.
ls -1t "$DEST"/lectern-*.tar.gz 2>/dev/null | tail -n +$((KEEP + 1)) | xargs -r rm -f
