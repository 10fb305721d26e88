-- Shared domain blocklists (Mastodon's CSV export) bring a third kind of block: `silence`, a
-- domain whose comments wait for approval. SQLite cannot change a CHECK constraint in place, so
-- the table is rebuilt with its rows.
CREATE TABLE blocks_new (
    kind          TEXT NOT NULL CHECK (kind IN ('actor', 'domain', 'silence')),
    value         TEXT NOT NULL,
    reason        TEXT,
    created_at    REAL NOT NULL,
    PRIMARY KEY (kind, value)
);
INSERT INTO blocks_new (kind, value, reason, created_at) SELECT kind, value, reason, created_at FROM blocks;
DROP TABLE blocks;
ALTER TABLE blocks_new RENAME TO blocks;
