-- The inbox's queue, the publisher's memory and the digest's memory.

-- Activities the inbox accepted, waiting to be applied. The inbox answers 202 once a row is
-- here; the work (fetching a parent note, re-rendering a page) happens after, from this row, so a
-- slow remote never holds a request and a crash loses nothing.
CREATE TABLE inbox_queue (
    seq              INTEGER PRIMARY KEY,
    activity_id      TEXT NOT NULL,
    actor_id         TEXT NOT NULL,              -- the verified signer
    json             TEXT NOT NULL,
    received_at      REAL NOT NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  REAL NOT NULL,
    last_error       TEXT
);
CREATE INDEX inbox_queue_due ON inbox_queue(next_attempt_at);

-- Notes that mention the blog but reply to nothing on it: kept for the owner's digest only.
CREATE TABLE mentions (
    id            TEXT PRIMARY KEY,
    author_id     TEXT NOT NULL REFERENCES remote_actors(id) ON DELETE CASCADE,
    url           TEXT,
    content_html  TEXT NOT NULL,                 -- sanitized
    received_at   REAL NOT NULL,
    digested_at   REAL
);

-- When a comment was reported in a digest (NULL: not yet).
ALTER TABLE comments ADD COLUMN digested_at REAL;

-- What followers were last told about each post. The publisher compares these with the
-- current row, so a post is announced once even across restarts, and a crash between
-- deciding and queueing repeats the decision instead of losing it.
ALTER TABLE posts ADD COLUMN announced_at REAL;       -- Create sent (or skipped: back-dated)
ALTER TABLE posts ADD COLUMN federated_hash TEXT;     -- content hash of the last Create/Update
ALTER TABLE posts ADD COLUMN delete_sent_at REAL;

-- Small named values: when the blog first published, the owner's resolved actor…
CREATE TABLE settings (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);
