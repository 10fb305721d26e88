-- Remote objects deleted by their authors. A replayed or relayed `Create` (or `Update`) of one
-- never brings it back. Kept 90 days for what the blog had; 2 days for ids it never saw (a
-- Delete that overtook its Create), so the rows strangers can cause stay bounded.
CREATE TABLE remote_tombstones (
    object_id     TEXT PRIMARY KEY,
    activity_id   TEXT,                       -- the Delete that removed it
    deleted_at    REAL NOT NULL,
    had_object    INTEGER NOT NULL DEFAULT 1  -- 0: deleted before it arrived
);
CREATE INDEX remote_tombstones_deleted_at ON remote_tombstones (deleted_at);

-- Automatic "only public replies appear" answers sent: at most one per actor per post per day,
-- and a small number per hour in all, so strangers cannot turn the blog into a DM cannon.
CREATE TABLE automatic_replies (
    actor_id      TEXT NOT NULL,
    target        TEXT NOT NULL,              -- the post (or comment) replied to
    sent_at       REAL NOT NULL,
    PRIMARY KEY (actor_id, target)
);
CREATE INDEX automatic_replies_sent_at ON automatic_replies (sent_at);
