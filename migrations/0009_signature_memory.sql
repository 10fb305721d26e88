-- When a host's signature standard was learned (double-knock): the answer is trusted for a
-- while, then asked again, so a server that starts accepting RFC 9421 gets it.
ALTER TABLE hosts ADD COLUMN signature_learned_at REAL;
