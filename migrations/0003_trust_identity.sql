-- Trust, one truth across processes, and posts that keep their identity.

-- Signatures already accepted, kept until they could no longer pass the date checks: a
-- replay is refused even after a restart or a crash.
CREATE TABLE seen_signatures (
    fingerprint  TEXT PRIMARY KEY,               -- SHA-256 of the signature, base64
    expires_at   REAL NOT NULL
);
CREATE INDEX seen_signatures_expiry ON seen_signatures(expires_at);

-- A post keeps its identity when its URL changes. Comments and reactions follow their post's
-- path when it moves (ON UPDATE CASCADE); SQLite cannot alter a foreign key, so both tables are
-- made again with the same columns. (GRDB runs migrations with foreign key checks deferred.)
CREATE TABLE comments_moved (
    id            TEXT PRIMARY KEY,
    post_path     TEXT NOT NULL REFERENCES posts(path) ON DELETE CASCADE ON UPDATE CASCADE,
    parent_id     TEXT REFERENCES comments(id) ON DELETE SET NULL,
    author_id     TEXT NOT NULL REFERENCES remote_actors(id) ON DELETE CASCADE,
    url           TEXT,
    content_html  TEXT NOT NULL,
    summary       TEXT,
    sensitive     INTEGER NOT NULL DEFAULT 0,
    language      TEXT,
    visibility    TEXT NOT NULL CHECK (visibility IN ('public', 'unlisted')),
    state         TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'rejected')),
    published_at  REAL NOT NULL,
    updated_at    REAL,
    received_at   REAL NOT NULL,
    digested_at   REAL
);
INSERT INTO comments_moved SELECT id, post_path, parent_id, author_id, url, content_html, summary, sensitive, language,
    visibility, state, published_at, updated_at, received_at, digested_at FROM comments;
DROP TABLE comments;
ALTER TABLE comments_moved RENAME TO comments;
CREATE INDEX comments_post ON comments(post_path, state, published_at);
CREATE INDEX comments_received ON comments(received_at);
CREATE INDEX comments_author ON comments(author_id);

CREATE TABLE reactions_moved (
    activity_id   TEXT PRIMARY KEY,
    kind          TEXT NOT NULL CHECK (kind IN ('like', 'announce')),
    post_path     TEXT NOT NULL REFERENCES posts(path) ON DELETE CASCADE ON UPDATE CASCADE,
    actor_id      TEXT NOT NULL,
    created_at    REAL NOT NULL,
    UNIQUE (kind, post_path, actor_id)
);
INSERT INTO reactions_moved SELECT activity_id, kind, post_path, actor_id, created_at FROM reactions;
DROP TABLE reactions;
ALTER TABLE reactions_moved RENAME TO reactions;

-- Which source file a post comes from (its identity when its slug or date changes), whether it
-- federates (`federate: false` keeps it off the fediverse), and a hash of what followers see of
-- it (an edit that changes none of it sends no Update).
ALTER TABLE posts ADD COLUMN source TEXT;
ALTER TABLE posts ADD COLUMN federate INTEGER NOT NULL DEFAULT 1;
CREATE INDEX posts_source ON posts(source);

-- URLs a post had before its slug or date changed: requested as HTML they redirect (301) to the
-- post; requested as ActivityPub they answer with its Article, whose id is its first URL.
CREATE TABLE post_aliases (
    path          TEXT PRIMARY KEY,
    post_path     TEXT NOT NULL REFERENCES posts(path) ON DELETE CASCADE ON UPDATE CASCADE,
    created_at    REAL NOT NULL
);

-- One generation counter per kind of change. Any process that changes what the running server
-- serves (a build, moderation, a block, a key rotation) bumps one; the server polls this table
-- (a few rows) and reloads what depends on it. Costs one tiny read per poll, nothing when idle.
CREATE TABLE changes (
    kind          TEXT PRIMARY KEY,
    generation    INTEGER NOT NULL
);

-- A delivery held until the running server serves the site generation that has what it names:
-- a Create or Update never reaches followers before the page and the Article answer with it.
ALTER TABLE deliveries ADD COLUMN held_generation INTEGER;
CREATE INDEX deliveries_held ON deliveries(held_generation) WHERE held_generation IS NOT NULL;

-- Replies as their authors wrote them: what kind of post (a Note, an Article…) with its title,
-- its attachments and poll (JSON, URLs already checked), and the post it quotes.
ALTER TABLE comments ADD COLUMN kind TEXT NOT NULL DEFAULT 'Note';
ALTER TABLE comments ADD COLUMN title TEXT;
ALTER TABLE comments ADD COLUMN attachments TEXT;
ALTER TABLE comments ADD COLUMN poll TEXT;
ALTER TABLE comments ADD COLUMN quote_url TEXT;

-- Replies whose parent is not known yet (not received, not fetchable now): kept until it
-- arrives, then attached; after a day shown at the top of their post's thread when their
-- `context` names the post, else given up (and counted).
CREATE TABLE pending_replies (
    note_id       TEXT PRIMARY KEY,
    parent_id     TEXT NOT NULL,
    author_id     TEXT NOT NULL,
    json          TEXT NOT NULL,               -- the reply object as received
    context       TEXT,
    received_at   REAL NOT NULL
);
CREATE INDEX pending_replies_parent ON pending_replies(parent_id);

-- What the inbox did with what it received, counted per day: accepted with an effect, accepted
-- with none (and why), or refused (and why). `lectern status` and the metrics read it.
CREATE TABLE inbox_counts (
    day           TEXT NOT NULL,               -- UTC, 2026-11-23
    outcome       TEXT NOT NULL CHECK (outcome IN ('applied', 'ignored', 'refused')),
    reason        TEXT NOT NULL,
    count         INTEGER NOT NULL,
    PRIMARY KEY (day, outcome, reason)
);

-- How a post federates (`Article` or `Note`, chosen by the configuration when it first appears;
-- kept for its Updates and Delete). Posts federated before this column existed were Articles.
ALTER TABLE posts ADD COLUMN ap_type TEXT NOT NULL DEFAULT 'Article';

-- Objects the blog wrote that are not posts (direct notes, quote authorizations): their ids
-- answer with them, addressed ones only to a signed fetch by an addressee; a Tombstone once deleted.
CREATE TABLE sent_objects (
    id            TEXT PRIMARY KEY,
    type          TEXT NOT NULL,
    json          TEXT NOT NULL,               -- the object, with its @context
    recipients    TEXT,                        -- JSON array of actor ids; NULL: public
    created_at    REAL NOT NULL,
    deleted_at    REAL
);
