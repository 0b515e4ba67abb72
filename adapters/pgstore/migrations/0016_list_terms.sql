-- The exact total of a one-word filtered list without counting its rows
-- (issue 29, P5 on PostgreSQL): each company's vocabulary of the folded
-- resource descriptions, with how many resources hold each token. A token
-- is a run of the folded text (description_fold) between white space, the
-- runes Go's unicode.IsSpace reports (the 25 listed below), of three
-- characters or more (the shortest word the vocabulary answers for: a
-- shorter token cannot contain one); a resource counts once per token it
-- holds. The store keeps the counts in the
-- transaction that writes the resources (pgstore/listterms.go: one
-- statement per transaction with the net change per token), and reads a
-- filter's total from them when exactly one token of the company contains
-- the filter's word. A row whose count falls to zero is deleted.
CREATE TABLE list_terms (
	company_id text COLLATE "C" NOT NULL,
	list       text COLLATE "C" NOT NULL,
	token      text COLLATE "C" NOT NULL,
	n          int NOT NULL,
	PRIMARY KEY (company_id, list, token)
);
-- The tokens that contain a word (token LIKE '%word%'): the vocabulary is
-- small beside the records (about one token per resource at 100,000).
-- Its pending list (GIN's fast update) is kept to the smallest, 64 kB: a
-- search reads the whole pending list, and with the default 4 MB (about
-- 20,000 new tokens) the lookup cost 1.4 ms per 3,000 pending tokens
-- against 0.08 ms; writing 20,000 new tokens costs 60 ms more
-- (docs/performance.md).
CREATE INDEX list_terms_token_trgm ON list_terms USING gin (token gin_trgm_ops) WITH (gin_pending_list_limit = 64);

-- The vocabulary of the resources already stored. The translate maps each
-- white-space rune of unicode.IsSpace to a space (the same 25 runes as
-- listterms.go's termSpaces; a test compares the two splits).
INSERT INTO list_terms (company_id, list, token, n)
SELECT x.company_id, 'resources.description', x.token, count(*)
FROM (
	SELECT DISTINCT r.company_id, r.id, t.token
	FROM resources r,
		string_to_table(translate(r.description_fold,
			E'\t\n\u000b\f\r\u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000',
			repeat(' ', 24)), ' ') AS t(token)
	WHERE char_length(t.token) >= 3
) x
GROUP BY x.company_id, x.token
ORDER BY x.company_id, x.token;
