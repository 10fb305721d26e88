-- Full-text search over the site's posts (`/search?q=`). The runtime hands the store each
-- built post's title, tags and plain text after a build; a post is indexed again only when its
-- source changed (`source_hash`). Diacritics fold ("café" finds "cafe"); prefixes of two to five
-- letters are indexed so `swi*` reads one list instead of merging every word that starts so.
CREATE VIRTUAL TABLE search_posts USING fts5(
    title, tags, body,
    path UNINDEXED, source_hash UNINDEXED, published UNINDEXED,
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '2 3 4 5'
);

-- Ranking: a match in the title weighs most, then tags, then the text.
INSERT INTO search_posts (search_posts, rank) VALUES ('rank', 'bm25(10.0, 5.0, 1.0)');
