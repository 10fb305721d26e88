-- Email subscribers (the newsletter). An address is kept only to mail it posts: never shown on
-- a page, never sent to the fediverse; removing it deletes every trace (its row and, by the
-- cascade, its mails). Tokens are kept only as SHA-256 hashes.
CREATE TABLE subscribers (
    email                 TEXT PRIMARY KEY,       -- as MailAddress writes it (lower-cased)
    mailbox               TEXT NOT NULL,          -- the address without a +tag: the daily limit counts per mailbox
    state                 TEXT NOT NULL CHECK (state IN ('pending', 'confirmed', 'bouncing')),
    origin                TEXT NOT NULL CHECK (origin IN ('form', 'added', 'imported')),
    confirm_hash          TEXT,                   -- the confirmation link's token, hashed
    confirm_expires_at    REAL,
    unsubscribe_hash      TEXT NOT NULL UNIQUE,   -- the unsubscribe link's token, hashed
    confirmation_sent_at  REAL,                   -- one confirmation per address per day
    failures              INTEGER NOT NULL DEFAULT 0,  -- permanent refusals by the relay in a row
    created_at            REAL NOT NULL,
    confirmed_at          REAL
);
CREATE INDEX subscribers_confirm ON subscribers(confirm_hash);
CREATE INDEX subscribers_mailbox ON subscribers(mailbox, confirmation_sent_at);

-- Mails to send: an address's confirmation, or a post to a confirmed subscriber. A mail is
-- composed when it is sent (the confirmation's token is made then; a post removed meanwhile is
-- not sent). `next_attempt_at` is also the lease of a send under way: a crash mid-send sends that
-- mail again, and no other.
CREATE TABLE mail_queue (
    id               INTEGER PRIMARY KEY,
    email            TEXT NOT NULL REFERENCES subscribers(email) ON DELETE CASCADE,
    kind             TEXT NOT NULL CHECK (kind IN ('confirmation', 'post')),
    post_path        TEXT NOT NULL DEFAULT '',
    state            TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sent', 'failed')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  REAL NOT NULL,
    last_error       TEXT,
    created_at       REAL NOT NULL,
    UNIQUE (email, kind, post_path)
);
CREATE INDEX mail_queue_due ON mail_queue(state, next_attempt_at);
CREATE INDEX mail_queue_created ON mail_queue(kind, created_at);
