-- What each post's `content_hash` (the fingerprint of what followers see of it) was computed
-- from: its source's hash, the settings it depends on and the program's version. A start or
-- reload whose post has the same key reuses the fingerprint instead of converting the post.
ALTER TABLE posts ADD COLUMN fingerprint_source TEXT;
