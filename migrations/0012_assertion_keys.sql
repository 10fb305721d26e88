-- Remote actors' assertion keys (FEP-521a `assertionMethod`, Multikey): the keys that make their
-- object integrity proofs (FEP-8b32). Kept apart from `actor_keys` (their `publicKey`s, for HTTP
-- signatures): a key serves the purpose its actor listed it for, and no other.
CREATE TABLE actor_assertion_keys (
    key_id        TEXT PRIMARY KEY,
    actor_id      TEXT NOT NULL REFERENCES remote_actors(id) ON DELETE CASCADE,
    multibase     TEXT NOT NULL,              -- publicKeyMultibase: z + base58btc(0xed01 + 32 bytes)
    fetched_at    REAL NOT NULL
);
CREATE INDEX actor_assertion_keys_actor ON actor_assertion_keys(actor_id);
