-- A bank composition's structure is kept in its own row, as three arrays in
-- the order of its items (kind, code, coefficient), rather than one row per
-- item: a national SINAPI import wrote 2.4 million item rows, each checked
-- against its composition's key and indexed, and that was most of its time
-- on PostgreSQL (docs/performance.md, issue 25). NULL arrays: no structure
-- (has_items false) or an empty one (has_items true).
ALTER TABLE bank_compositions
	ADD COLUMN item_kinds text[],
	ADD COLUMN item_codes text[],
	ADD COLUMN item_coefs numeric[];

UPDATE bank_compositions r
SET item_kinds = x.kinds, item_codes = x.codes, item_coefs = x.coefs
FROM (
	SELECT edition_key, composition_code,
		array_agg(kind ORDER BY pos) AS kinds,
		array_agg(code ORDER BY pos) AS codes,
		array_agg(coefficient ORDER BY pos) AS coefs
	FROM bank_composition_items
	GROUP BY edition_key, composition_code
) x
WHERE r.edition_key = x.edition_key AND r.code = x.composition_code;

DROP TABLE bank_composition_items;
