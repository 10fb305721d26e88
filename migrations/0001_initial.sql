-- Lectern's schema: every piece of federation state. Applied once, never edited after it lands;
-- later changes go in new files. Times are Unix seconds (REAL), ids are whole URLs.

-- Posts as the fediverse knows them. `ap_id` is the first id a post was published under and
-- never changes, even if its slug does; `deleted_at` makes its URL answer 410.
CREATE TABLE posts (
    path          TEXT PRIMARY KEY,              -- site path, /2025/hello-world/
    ap_id         TEXT NOT NULL UNIQUE,
    title         TEXT NOT NULL,
    content_hash  TEXT NOT NULL,                 -- of the source; a change means Update(Article)
    published_at  REAL NOT NULL,
    updated_at    REAL,
    pinned        INTEGER NOT NULL DEFAULT 0,
    deleted_at    REAL
);

-- Actors on other servers, cached from their documents.
CREATE TABLE remote_actors (
    id            TEXT PRIMARY KEY,
    handle        TEXT,                          -- @name@host, when known
    name          TEXT,
    url           TEXT,                          -- profile page
    icon          TEXT,
    inbox         TEXT NOT NULL,
    shared_inbox  TEXT,
    fetched_at    REAL NOT NULL
);

-- Their public keys (an actor may publish several; keys rotate).
CREATE TABLE actor_keys (
    key_id        TEXT PRIMARY KEY,
    actor_id      TEXT NOT NULL REFERENCES remote_actors(id) ON DELETE CASCADE,
    pem           TEXT NOT NULL,
    fetched_at    REAL NOT NULL
);
CREATE INDEX actor_keys_actor ON actor_keys(actor_id);

CREATE TABLE followers (
    actor_id           TEXT PRIMARY KEY REFERENCES remote_actors(id) ON DELETE CASCADE,
    follow_activity_id TEXT NOT NULL,
    created_at         REAL NOT NULL
);

-- Replies to posts, shown as comments. `content_html` is already sanitized.
CREATE TABLE comments (
    id            TEXT PRIMARY KEY,              -- the Note's id
    post_path     TEXT NOT NULL REFERENCES posts(path) ON DELETE CASCADE,
    parent_id     TEXT REFERENCES comments(id) ON DELETE SET NULL,   -- threads
    author_id     TEXT NOT NULL REFERENCES remote_actors(id) ON DELETE CASCADE,
    url           TEXT,
    content_html  TEXT NOT NULL,
    summary       TEXT,                          -- content warning
    sensitive     INTEGER NOT NULL DEFAULT 0,
    language      TEXT,
    visibility    TEXT NOT NULL CHECK (visibility IN ('public', 'unlisted')),
    state         TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'rejected')),
    published_at  REAL NOT NULL,
    updated_at    REAL,
    received_at   REAL NOT NULL
);
CREATE INDEX comments_post ON comments(post_path, state, published_at);
CREATE INDEX comments_received ON comments(received_at);

-- Likes and announces, counted per post.
CREATE TABLE reactions (
    activity_id   TEXT PRIMARY KEY,
    kind          TEXT NOT NULL CHECK (kind IN ('like', 'announce')),
    post_path     TEXT NOT NULL REFERENCES posts(path) ON DELETE CASCADE,
    actor_id      TEXT NOT NULL,
    created_at    REAL NOT NULL,
    UNIQUE (kind, post_path, actor_id)
);

-- Activities the blog sends, and one delivery row per (activity, inbox).
CREATE TABLE outbound_activities (
    id            TEXT PRIMARY KEY,
    type          TEXT NOT NULL,
    object_id     TEXT,
    json          TEXT NOT NULL,
    created_at    REAL NOT NULL
);
CREATE INDEX outbound_object ON outbound_activities(object_id);

CREATE TABLE deliveries (
    id               INTEGER PRIMARY KEY,
    activity_id      TEXT NOT NULL REFERENCES outbound_activities(id) ON DELETE CASCADE,
    inbox            TEXT NOT NULL,
    host             TEXT NOT NULL,
    state            TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'delivered', 'failed')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  REAL NOT NULL,
    last_status      INTEGER,
    last_error       TEXT,
    created_at       REAL NOT NULL,
    UNIQUE (activity_id, inbox)
);
CREATE INDEX deliveries_due ON deliveries(state, next_attempt_at);

-- Per remote host: failure streak (a host failing for 7 days is paused) and whether it
-- accepts RFC 9421 signatures (learned by double-knocking).
CREATE TABLE hosts (
    host                TEXT PRIMARY KEY,
    failing_since       REAL,
    paused              INTEGER NOT NULL DEFAULT 0,
    accepts_rfc9421     INTEGER
);

-- Activity ids already processed: duplicates are accepted and ignored.
CREATE TABLE received_activities (
    id            TEXT PRIMARY KEY,
    received_at   REAL NOT NULL
);

CREATE TABLE blocks (
    kind          TEXT NOT NULL CHECK (kind IN ('actor', 'domain')),
    value         TEXT NOT NULL,
    reason        TEXT,
    created_at    REAL NOT NULL,
    PRIMARY KEY (kind, value)
);

-- One row: when the last comment digest went out.
CREATE TABLE digest_state (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    last_sent_at  REAL,
    last_comment_received_at REAL
);
