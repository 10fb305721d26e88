-- Webmention (W3C Recommendation), received and sent.

-- Webmentions received and not verified yet. The endpoint answers 202 once a row is here; the
-- source is fetched and read later, from this row. One row per (source, target): a re-send
-- while it waits updates it. Bounded by the endpoint: at most 20 rows per source site (its
-- host's last two DNS labels, three for `co.uk`-like names: `Store.webmentionSite`) and 1,000 in
-- all (a stranger cannot grow the table without bound).
CREATE TABLE webmention_queue (
    seq              INTEGER PRIMARY KEY,
    source           TEXT NOT NULL,
    target           TEXT NOT NULL,
    post_path        TEXT NOT NULL,
    source_site      TEXT NOT NULL,
    received_at      REAL NOT NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  REAL NOT NULL,
    last_error       TEXT,
    UNIQUE (source, target)
);
CREATE INDEX webmention_queue_due ON webmention_queue(next_attempt_at);
CREATE INDEX webmention_queue_site ON webmention_queue(source_site);

-- Webmentions verified and kept: what each became (a comment or a reaction, by its id), so a
-- re-sent one updates it and a source that is gone or no longer links removes it.
CREATE TABLE webmentions (
    source        TEXT NOT NULL,
    target        TEXT NOT NULL,
    post_path     TEXT NOT NULL REFERENCES posts(path) ON DELETE CASCADE ON UPDATE CASCADE,
    kind          TEXT NOT NULL CHECK (kind IN ('comment', 'like', 'repost')),
    author_id     TEXT NOT NULL,
    source_site   TEXT NOT NULL,   -- Store.webmentionSite of the source's host: the hourly bound counts per site
    verified_at   REAL NOT NULL,
    PRIMARY KEY (source, target)
);
CREATE INDEX webmentions_site ON webmentions(source_site, verified_at);

-- What a delivery is: an ActivityPub activity (signed POST of its JSON to an inbox) or a
-- webmention (its endpoint discovered when it runs, then an unsigned form POST). A webmention's
-- `outbound_activities` row holds {"source": …, "target": …}; `inbox` is the target.
ALTER TABLE deliveries ADD COLUMN kind TEXT NOT NULL DEFAULT 'activity' CHECK (kind IN ('activity', 'webmention'));

-- The external links each post had when webmentions were last sent for it: an edit that drops
-- a link, or the post's removal, still notifies that target, so its receiver can drop it.
CREATE TABLE webmention_links (
    post_path     TEXT NOT NULL,
    target        TEXT NOT NULL,
    PRIMARY KEY (post_path, target)
);
