-- A resource's prices are kept in its own row, as five arrays with a place
-- per state in the states' order (state, then its pnd, pd, pndi and pdi),
-- rather than one row per state in resource_prices, the way 0010 keeps a
-- bank composition's items (issue 29, P5 on PostgreSQL). The page of a
-- list read its 100 resources' prices with a subquery per resource: an
-- index lookup each, array_agg and numeric-to-text casts, about half the
-- statement's CPU (0.70 ms against 0.37 ms without it, docs/performance.md).
-- The prices are text: exactly what numeric printed (pnd::text, the text
-- the store decoded before; pgstore's decText writes the same), so a read
-- converts no number. Empty arrays: no prices.
ALTER TABLE resources
	ADD COLUMN price_states text[] COLLATE "C" NOT NULL DEFAULT '{}',
	ADD COLUMN price_pnd    text[] NOT NULL DEFAULT '{}',
	ADD COLUMN price_pd     text[] NOT NULL DEFAULT '{}',
	ADD COLUMN price_pndi   text[] NOT NULL DEFAULT '{}',
	ADD COLUMN price_pdi    text[] NOT NULL DEFAULT '{}';

UPDATE resources r
SET price_states = x.states, price_pnd = x.pnd, price_pd = x.pd, price_pndi = x.pndi, price_pdi = x.pdi
FROM (
	SELECT company_id, resource_id,
		array_agg(state ORDER BY state) AS states,
		array_agg(pnd::text ORDER BY state) AS pnd,
		array_agg(pd::text ORDER BY state) AS pd,
		array_agg(pndi::text ORDER BY state) AS pndi,
		array_agg(pdi::text ORDER BY state) AS pdi
	FROM resource_prices
	GROUP BY company_id, resource_id
) x
WHERE r.company_id = x.company_id AND r.id = x.resource_id;

DROP TABLE resource_prices;
