-- The owner moderates from the fediverse by answering a digest ("hide 3"): each digest numbers
-- its comments, and the numbers are kept with the digest note they belong to.
CREATE TABLE digest_numbers (
    note_id     TEXT NOT NULL,
    number      INTEGER NOT NULL,
    comment_id  TEXT NOT NULL,
    PRIMARY KEY (note_id, number)
);
