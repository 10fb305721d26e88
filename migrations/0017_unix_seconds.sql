-- Every table keeps its times as Unix seconds (REAL). The actor tables were written with text
-- times ('2026-12-07 09:16:08.123', UTC) by the code before their record types: those become
-- seconds too, so each column holds one type.
UPDATE remote_actors SET fetched_at = round((julianday(fetched_at) - 2440587.5) * 86400.0, 3) WHERE typeof(fetched_at) = 'text';
UPDATE actor_keys SET fetched_at = round((julianday(fetched_at) - 2440587.5) * 86400.0, 3) WHERE typeof(fetched_at) = 'text';
UPDATE actor_assertion_keys SET fetched_at = round((julianday(fetched_at) - 2440587.5) * 86400.0, 3) WHERE typeof(fetched_at) = 'text';
