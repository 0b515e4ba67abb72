-- The total of a text filter without counting rows (issue 29): list_vocab
-- holds, per company, how many resources have each token of their folded
-- description (description_fold split at spaces), kept by triggers in the
-- writing statement, whatever writes (INSERT, COPY, UPDATE, DELETE). A
-- filter word without a space is contained in a folded text exactly when
-- it is contained in one of its tokens, so when a single
-- token of the company contains the word its count is the exact number of
-- matches (pgstore/listvocab.go); otherwise the rows are counted as before.
-- Like list_counts, a statement adds to one of 16 shards of each token, so
-- that concurrent writers of a company do not wait on one row.
CREATE TABLE list_vocab (
	company_id text COLLATE "C" NOT NULL,
	list       text COLLATE "C" NOT NULL,
	token      text COLLATE "C" NOT NULL,
	shard      int NOT NULL,
	n          bigint NOT NULL,
	PRIMARY KEY (company_id, list, token, shard)
);
CREATE INDEX list_vocab_token_trgm ON list_vocab USING gin (token gin_trgm_ops);

-- list_vocab_resources takes the tokens of the rows a statement deleted
-- (old_rows) out of list_vocab and adds those of the rows it wrote
-- (new_rows), each row's distinct tokens once, in token order (the same
-- lock order in every statement).
CREATE FUNCTION list_vocab_resources() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	s int := floor(random() * 16)::int;
BEGIN
	IF TG_OP IN ('DELETE', 'UPDATE') THEN
		INSERT INTO list_vocab (company_id, list, token, shard, n)
		SELECT company_id, 'resources.description', tok, s, -count(*)
		FROM (SELECT DISTINCT o.company_id, o.id, t.tok
			FROM old_rows o, unnest(string_to_array(o.description_fold, ' ')) AS t(tok) WHERE t.tok <> '') x
		GROUP BY company_id, tok ORDER BY company_id, tok
		ON CONFLICT (company_id, list, token, shard) DO UPDATE SET n = list_vocab.n + excluded.n;
	END IF;
	IF TG_OP IN ('INSERT', 'UPDATE') THEN
		INSERT INTO list_vocab (company_id, list, token, shard, n)
		SELECT company_id, 'resources.description', tok, s, count(*)
		FROM (SELECT DISTINCT w.company_id, w.id, t.tok
			FROM new_rows w, unnest(string_to_array(w.description_fold, ' ')) AS t(tok) WHERE t.tok <> '') x
		GROUP BY company_id, tok ORDER BY company_id, tok
		ON CONFLICT (company_id, list, token, shard) DO UPDATE SET n = list_vocab.n + excluded.n;
	END IF;
	RETURN NULL;
END $$;

CREATE TRIGGER resources_vocab_insert AFTER INSERT ON resources
	REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_vocab_resources();
CREATE TRIGGER resources_vocab_delete AFTER DELETE ON resources
	REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_vocab_resources();
CREATE TRIGGER resources_vocab_update AFTER UPDATE ON resources
	REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_vocab_resources();

-- The resources written before.
INSERT INTO list_vocab (company_id, list, token, shard, n)
SELECT company_id, 'resources.description', tok, 0, count(*)
FROM (SELECT DISTINCT r.company_id, r.id, t.tok
	FROM resources r, unnest(string_to_array(r.description_fold, ' ')) AS t(tok) WHERE t.tok <> '') x
GROUP BY company_id, tok;
