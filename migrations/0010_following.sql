-- Accounts the blog follows (`lectern follow`). A follow is pending until the remote's Accept,
-- rejected after its Reject; `follow_activity_id` is the id of the Follow the blog sent last,
-- which an Accept or Reject must name. Gone with the actor's row (a deleted account).
CREATE TABLE following (
    actor_id           TEXT PRIMARY KEY REFERENCES remote_actors(id) ON DELETE CASCADE,
    follow_activity_id TEXT NOT NULL UNIQUE,
    state              TEXT NOT NULL CHECK (state IN ('pending', 'accepted', 'rejected')),
    created_at         REAL NOT NULL,
    answered_at        REAL,
    moved_at           REAL,                  -- this follow came from a Move (or was one's target): no Move from it for a day
    move_fetched_at    REAL                   -- when a Move from this account last cost a fetch of its target (one an hour)
);
CREATE INDEX following_state ON following(state, created_at);

-- FEP-8fcf on the receiving side: when a followed actor's followers collection was last
-- reconciled, or a remote host's for its other accounts (at most once an hour each).
CREATE TABLE followers_sync (
    host              TEXT PRIMARY KEY,       -- a followed actor's id, or host:port of the remote server
    reconciled_at     REAL NOT NULL
);
