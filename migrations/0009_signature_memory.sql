-- What the double-knock learned per origin (scheme://host:port): whether RFC 9421 signatures
-- were accepted (1) or only draft-cavage (0), and when, so the answer is asked again after a
-- while (a server that starts accepting RFC 9421 gets it). Replaces hosts.accepts_rfc9421,
-- which was per host name and never dated.
CREATE TABLE signature_memory (
    origin      TEXT PRIMARY KEY,
    rfc9421     INTEGER NOT NULL,
    learned_at  REAL NOT NULL
);
