-- Full-text search over the site's posts (`/search?q=`). The runtime hands the store each
-- built post's title, tags and plain text after a build; a post is indexed again only when its
-- source changed (`source_hash`). Diacritics fold ("café" finds "cafe"); two- and three-letter
-- prefixes are indexed so `swi*` stays fast.
CREATE VIRTUAL TABLE search_posts USING fts5(
    title, tags, body,
    path UNINDEXED, source_hash UNINDEXED, published UNINDEXED,
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '2 3'
);
