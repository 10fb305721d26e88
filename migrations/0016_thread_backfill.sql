-- Replies fetched from the collections their threads' servers serve (Mastodon's `replies`):
-- for each comment, when to read its collection next. Read when the comment is taken, then after
-- about 10 minutes, an hour and a day (`round` 0–3), then no more unless a delivered reply joins
-- its thread. `host` is the comment's server, whose budget the reading spends. Only approved
-- comments are read (a comment held, rejected or blocked waits, or never is).
CREATE TABLE thread_backfill (
    comment_id  TEXT PRIMARY KEY REFERENCES comments(id) ON DELETE CASCADE,
    post_path   TEXT NOT NULL,
    depth       INTEGER NOT NULL,             -- the comment's depth in the page's thread (0: a reply to the post)
    round       INTEGER NOT NULL DEFAULT 0,
    next_at     REAL NOT NULL,
    host        TEXT NOT NULL,
    rearmed_at  REAL                          -- a delivered reply asks for one more reading at most hourly
);
CREATE INDEX thread_backfill_due ON thread_backfill(next_at);
