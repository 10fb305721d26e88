-- Inbox requests whose signing key could not be had when they arrived (its server slow, failing
-- or over the key-lookup budget): kept as received and verified again later, so a sender that
-- retries badly (GoToSocial re-sends an empty body after a 503) loses nothing. Nothing in them
-- is applied before their signature verifies; bounded per key host and in all, one row per
-- signature.
CREATE TABLE held_inbound (
    seq              INTEGER PRIMARY KEY,
    key_host         TEXT NOT NULL,             -- the host of the signature's keyId (= the actor's)
    signature        TEXT NOT NULL UNIQUE,      -- the signature's replay key (key id and bytes), base64
    request          BLOB NOT NULL,             -- method, URL, headers and body as received (JSON)
    received_at      REAL NOT NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  REAL NOT NULL
);
CREATE INDEX held_inbound_due ON held_inbound(next_attempt_at);
CREATE INDEX held_inbound_host ON held_inbound(key_host);
