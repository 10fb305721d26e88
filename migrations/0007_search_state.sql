-- What the search index holds, by path, in a plain table beside it. Reading `path` and
-- `source_hash` out of `search_posts` meant reading every post's text too (the columns come
-- after `body` in each row): 12 ms of a one-post rebuild of 1,000 posts, on every build.
CREATE TABLE search_state (
    path TEXT PRIMARY KEY NOT NULL,
    doc INTEGER NOT NULL,          -- the post's rowid in search_posts
    source_hash TEXT NOT NULL
) WITHOUT ROWID;

INSERT OR REPLACE INTO search_state (path, doc, source_hash) SELECT path, rowid, source_hash FROM search_posts;
-- A path indexed twice keeps one row; the other could never be removed again.
DELETE FROM search_posts WHERE rowid NOT IN (SELECT doc FROM search_state);
