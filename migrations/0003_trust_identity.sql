-- Trust, one truth across processes, and posts that keep their identity.

-- Signatures already accepted, kept until they could no longer pass the date checks: a
-- replay is refused even after a restart or a crash.
CREATE TABLE seen_signatures (
    fingerprint  TEXT PRIMARY KEY,               -- SHA-256 of the signature, base64
    expires_at   REAL NOT NULL
);
CREATE INDEX seen_signatures_expiry ON seen_signatures(expires_at);
