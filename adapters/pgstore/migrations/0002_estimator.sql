-- The BDI as TCU checks it (work type, parts, differentiated BDI, supply
-- lines) as one JSON text per budget, NULL when the budget has none; and
-- the frozen versions of budgets, their content kept byte for byte.
ALTER TABLE budgets ADD COLUMN tcu_bdi text COLLATE "C";

CREATE TABLE budget_versions (
	company_id   text COLLATE "C" NOT NULL,
	budget_id    text COLLATE "C" NOT NULL,
	number       int NOT NULL,
	frozen_at    timestamptz NOT NULL,
	frozen_at_ns int NOT NULL,
	hash         text COLLATE "C" NOT NULL,
	content      bytea NOT NULL,
	PRIMARY KEY (budget_id, number)
);
