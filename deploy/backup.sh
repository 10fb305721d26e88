#!/bin/sh
# Backs up a running Lectern site with `lectern backup` (SQLite's online backup of the database,
# checked with integrity_check, plus keys, configuration and sources) into a dated archive, and
# keeps the newest KEEP. Used by deploy/lectern-backup.service; needs only sh and the binary.
#   deploy/backup.sh /var/lib/lectern /var/backups/lectern [KEEP]
#   restore: systemctl stop lectern && lectern restore -s /var/lib/lectern ARCHIVE && systemctl start lectern
set -eu
SITE=${1:?usage: backup.sh SITE_DIR BACKUP_DIR [KEEP]}
DEST=${2:?usage: backup.sh SITE_DIR BACKUP_DIR [KEEP]}
KEEP=${3:-14}
LECTERN=${LECTERN:-lectern}
umask 077
mkdir -p "$DEST"
ARCHIVE="$DEST/lectern-$(date -u +%Y%m%d-%H%M%S).tar.gz"
"$LECTERN" backup -s "$SITE" "$ARCHIVE"
# Keep the newest $KEEP archives.
ls -1t "$DEST"/lectern-*.tar.gz 2>/dev/null | tail -n +$((KEEP + 1)) | while read -r old; do rm -f "$old"; done
