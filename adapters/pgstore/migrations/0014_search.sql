-- Search across the reference banks (issue 28): the words of each bank
-- record's description as costdb's one rule makes them (domain.SearchWords:
-- accents removed, upper case, runs of letters and of digits, without single
-- letters and stop words), written with the record at import, and their
-- full-text vector with a GIN index, which tsqueries match (a word of three
-- letters or more as a prefix, 'BLOCO':*). NULL words: a row written before
-- this migration; the store fills them when it opens (pgstore/search.go).
ALTER TABLE bank_resources
	ADD COLUMN words text[],
	ADD COLUMN search tsvector GENERATED ALWAYS AS (array_to_tsvector(coalesce(words, '{}'))) STORED;
CREATE INDEX bank_resources_search ON bank_resources USING gin (search);

ALTER TABLE bank_compositions
	ADD COLUMN words text[],
	ADD COLUMN search tsvector GENERATED ALWAYS AS (array_to_tsvector(coalesce(words, '{}'))) STORED;
CREATE INDEX bank_compositions_search ON bank_compositions USING gin (search);
