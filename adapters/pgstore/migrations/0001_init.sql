-- costdb schema, version 1. Every text that is a key or sorts is COLLATE "C"
-- (byte order, as the bbolt store lists). The lists' text rules are kept in
-- columns the store computes from the record on every write: *_fold is
-- app.Fold of the field (lower case, no accents: Contains and the order),
-- *_ci its simple case folding (EqualFold), code_key app.CodeKey of the
-- folded code (the natural order of codes). A substring test (Contains)
-- reads the company's rows: no trigram index, since that needs an
-- extension. Times are timestamptz plus the
-- nanoseconds below the microsecond (*_ns), so that they come back exact.
-- Decimals are numeric, which keeps their scale (1.50 stays 1.50).

CREATE TABLE settings (
	key   bytea PRIMARY KEY, -- a key may hold any byte, NUL included
	value bytea NOT NULL
);

CREATE TABLE companies (
	id            text COLLATE "C" PRIMARY KEY,
	name          text COLLATE "C" NOT NULL,
	created_at    timestamptz NOT NULL,
	created_at_ns int NOT NULL
);
CREATE UNIQUE INDEX companies_name ON companies (name) WHERE name <> '';

CREATE TABLE departments (
	company_id    text COLLATE "C" NOT NULL,
	id            text COLLATE "C" NOT NULL,
	name          text COLLATE "C" NOT NULL,
	created_at    timestamptz NOT NULL,
	created_at_ns int NOT NULL,
	PRIMARY KEY (company_id, id)
);
CREATE UNIQUE INDEX departments_id ON departments (id);
CREATE UNIQUE INDEX departments_name ON departments (company_id, name) WHERE name <> '';

CREATE TABLE users (
	company_id    text COLLATE "C" NOT NULL,
	id            text COLLATE "C" NOT NULL,
	department_id text COLLATE "C" NOT NULL,
	email         text COLLATE "C" NOT NULL,
	name          text NOT NULL,
	secret_hash   bytea,
	disabled      boolean NOT NULL,
	created_at    timestamptz NOT NULL,
	created_at_ns int NOT NULL,
	-- When every token issued before was revoked (the zero time: never).
	tokens_revoked_at    timestamptz NOT NULL,
	tokens_revoked_at_ns int NOT NULL,
	PRIMARY KEY (company_id, id)
);
CREATE UNIQUE INDEX users_id ON users (id);
CREATE UNIQUE INDEX users_email ON users (email) WHERE email <> '';

CREATE TABLE groups (
	company_id    text COLLATE "C" NOT NULL,
	id            text COLLATE "C" NOT NULL,
	user_id       text COLLATE "C" NOT NULL,
	department_id text COLLATE "C" NOT NULL,
	description   text COLLATE "C" NOT NULL,
	description_fold text COLLATE "C" NOT NULL,
	description_ci   text COLLATE "C" NOT NULL,
	created_at    timestamptz NOT NULL,
	created_at_ns int NOT NULL,
	PRIMARY KEY (company_id, id)
);
CREATE UNIQUE INDEX groups_id ON groups (id);
CREATE INDEX groups_description ON groups (company_id, description_fold, description, id);
CREATE INDEX groups_description_ci ON groups (company_id, description_ci);
CREATE INDEX groups_created ON groups (company_id, created_at, created_at_ns, id);

CREATE TABLE resources (
	company_id    text COLLATE "C" NOT NULL,
	id            text COLLATE "C" NOT NULL,
	user_id       text COLLATE "C" NOT NULL,
	department_id text COLLATE "C" NOT NULL,
	group_id      text COLLATE "C" NOT NULL,
	code          text COLLATE "C" NOT NULL,
	second_code   text COLLATE "C" NOT NULL,
	description   text COLLATE "C" NOT NULL,
	type          int NOT NULL,
	unit          text COLLATE "C" NOT NULL,
	is_sicro      boolean NOT NULL,
	status        boolean NOT NULL,
	note          text NOT NULL,
	code_fold        text COLLATE "C" NOT NULL,
	code_key         bytea NOT NULL,
	description_fold text COLLATE "C" NOT NULL,
	description_ci   text COLLATE "C" NOT NULL,
	unit_fold        text COLLATE "C" NOT NULL,
	unit_ci          text COLLATE "C" NOT NULL,
	created_at    timestamptz NOT NULL,
	created_at_ns int NOT NULL,
	PRIMARY KEY (company_id, id)
);
CREATE UNIQUE INDEX resources_id ON resources (id);
CREATE UNIQUE INDEX resources_code ON resources (company_id, code);
CREATE INDEX resources_code_order ON resources (company_id, code_key, code, id);
CREATE INDEX resources_description ON resources (company_id, description_fold, description, id);
CREATE INDEX resources_type ON resources (company_id, type, id);
CREATE INDEX resources_unit ON resources (company_id, unit_fold, unit, id);
CREATE INDEX resources_unit_ci ON resources (company_id, unit_ci);
CREATE INDEX resources_status ON resources (company_id, status, id);
CREATE INDEX resources_is_sicro ON resources (company_id, is_sicro, id);
CREATE INDEX resources_created ON resources (company_id, created_at, created_at_ns, id);
CREATE INDEX resources_group ON resources (company_id, group_id, id);

-- The prices of a resource, one row per state.
CREATE TABLE resource_prices (
	company_id  text COLLATE "C" NOT NULL,
	resource_id text COLLATE "C" NOT NULL,
	state       text COLLATE "C" NOT NULL,
	pnd         numeric NOT NULL,
	pd          numeric NOT NULL,
	pndi        numeric NOT NULL,
	pdi         numeric NOT NULL,
	PRIMARY KEY (company_id, resource_id, state),
	FOREIGN KEY (company_id, resource_id) REFERENCES resources (company_id, id) ON DELETE CASCADE
);

CREATE TABLE compositions (
	company_id      text COLLATE "C" NOT NULL,
	id              text COLLATE "C" NOT NULL,
	user_id         text COLLATE "C" NOT NULL,
	department_id   text COLLATE "C" NOT NULL,
	group_id        text COLLATE "C" NOT NULL,
	code            text COLLATE "C" NOT NULL,
	second_code     text COLLATE "C" NOT NULL,
	description     text COLLATE "C" NOT NULL,
	type            text COLLATE "C" NOT NULL,
	unit            text COLLATE "C" NOT NULL,
	state           text COLLATE "C" NOT NULL,
	is_sicro        boolean NOT NULL,
	labor           boolean NOT NULL,
	rounding        int NOT NULL,
	note            text NOT NULL,
	team_production numeric NOT NULL,
	fic             numeric NOT NULL,
	labor_addition  numeric NOT NULL,
	-- Whether the lists of banks and items exist at all (nil and empty
	-- differ).
	has_banks       boolean NOT NULL,
	has_items       boolean NOT NULL,
	code_fold        text COLLATE "C" NOT NULL,
	code_key         bytea NOT NULL,
	description_fold text COLLATE "C" NOT NULL,
	description_ci   text COLLATE "C" NOT NULL,
	unit_fold        text COLLATE "C" NOT NULL,
	unit_ci          text COLLATE "C" NOT NULL,
	state_fold       text COLLATE "C" NOT NULL,
	state_ci         text COLLATE "C" NOT NULL,
	type_fold        text COLLATE "C" NOT NULL,
	type_ci          text COLLATE "C" NOT NULL,
	created_at      timestamptz NOT NULL,
	created_at_ns   int NOT NULL,
	PRIMARY KEY (company_id, id)
);
CREATE UNIQUE INDEX compositions_id ON compositions (id);
CREATE UNIQUE INDEX compositions_code ON compositions (company_id, code, state);
CREATE INDEX compositions_code_order ON compositions (company_id, code_key, code, id);
CREATE INDEX compositions_description ON compositions (company_id, description_fold, description, id);
CREATE INDEX compositions_type ON compositions (company_id, type_fold, type, id);
CREATE INDEX compositions_type_ci ON compositions (company_id, type_ci);
CREATE INDEX compositions_unit ON compositions (company_id, unit_fold, unit, id);
CREATE INDEX compositions_unit_ci ON compositions (company_id, unit_ci);
CREATE INDEX compositions_state ON compositions (company_id, state_fold, state, id);
CREATE INDEX compositions_state_ci ON compositions (company_id, state_ci);
CREATE INDEX compositions_is_sicro ON compositions (company_id, is_sicro, id);
CREATE INDEX compositions_created ON compositions (company_id, created_at, created_at_ns, id);
CREATE INDEX compositions_group ON compositions (company_id, group_id, id);

-- The bank editions a composition (or a budget) prices with, in order.
CREATE TABLE composition_banks (
	company_id         text COLLATE "C" NOT NULL,
	composition_id     text COLLATE "C" NOT NULL,
	pos                int NOT NULL,
	name               text COLLATE "C" NOT NULL,
	state              text COLLATE "C" NOT NULL,
	month              text COLLATE "C" NOT NULL,
	region             text COLLATE "C" NOT NULL,
	report             boolean NOT NULL,
	asked_region       text COLLATE "C" NOT NULL,
	with_labor_charges boolean,
	PRIMARY KEY (company_id, composition_id, pos),
	FOREIGN KEY (company_id, composition_id) REFERENCES compositions (company_id, id) ON DELETE CASCADE
);

CREATE TABLE composition_items (
	company_id     text COLLATE "C" NOT NULL,
	composition_id text COLLATE "C" NOT NULL,
	pos            int NOT NULL,
	bank           text COLLATE "C" NOT NULL,
	code           text COLLATE "C" NOT NULL,
	kind           text COLLATE "C" NOT NULL,
	quantity       numeric NOT NULL,
	utilization    numeric,
	PRIMARY KEY (company_id, composition_id, pos),
	FOREIGN KEY (company_id, composition_id) REFERENCES compositions (company_id, id) ON DELETE CASCADE
);
-- Which compositions use an item (a resource or a composition), for the
-- "still used by" checks.
CREATE INDEX composition_items_code ON composition_items (company_id, bank, code);

CREATE TABLE editions (
	key           text COLLATE "C" PRIMARY KEY,
	bank          text COLLATE "C" NOT NULL,
	state         text COLLATE "C" NOT NULL,
	month         text COLLATE "C" NOT NULL,
	region        text COLLATE "C" NOT NULL,
	regimes       int[],
	resources     int NOT NULL,
	compositions  int NOT NULL,
	structures    int NOT NULL,
	source        text NOT NULL,
	imported_at   timestamptz NOT NULL,
	imported_at_ns int NOT NULL
);

-- Bank rows are keyed by their edition's key; they may be written before
-- the edition's own row (an import writes it last), so there is no foreign
-- key to editions.
CREATE TABLE bank_resources (
	edition_key text COLLATE "C" NOT NULL,
	code        text COLLATE "C" NOT NULL,
	description text COLLATE "C" NOT NULL,
	unit        text COLLATE "C" NOT NULL,
	type        int NOT NULL,
	pnd         numeric NOT NULL,
	pd          numeric NOT NULL,
	pndi        numeric NOT NULL,
	pdi         numeric NOT NULL,
	-- The regimes whose prices the row has; NULL: every regime of the
	-- edition (rows written before regimes were kept).
	regimes     int[],
	PRIMARY KEY (edition_key, code)
);

CREATE TABLE bank_compositions (
	edition_key text COLLATE "C" NOT NULL,
	code        text COLLATE "C" NOT NULL,
	description text COLLATE "C" NOT NULL,
	unit        text COLLATE "C" NOT NULL,
	class       text COLLATE "C" NOT NULL,
	cost_pnd    numeric NOT NULL,
	cost_pd     numeric NOT NULL,
	-- Whether the composition has a structure at all (an empty list and
	-- none differ).
	has_items   boolean NOT NULL,
	regimes     int[], -- as bank_resources.regimes
	PRIMARY KEY (edition_key, code)
);

CREATE TABLE bank_composition_items (
	edition_key      text COLLATE "C" NOT NULL,
	composition_code text COLLATE "C" NOT NULL,
	pos              int NOT NULL,
	kind             text COLLATE "C" NOT NULL,
	code             text COLLATE "C" NOT NULL,
	coefficient      numeric NOT NULL,
	PRIMARY KEY (edition_key, composition_code, pos),
	FOREIGN KEY (edition_key, composition_code) REFERENCES bank_compositions (edition_key, code) ON DELETE CASCADE
);

CREATE TABLE budgets (
	company_id    text COLLATE "C" NOT NULL,
	id            text COLLATE "C" NOT NULL,
	user_id       text COLLATE "C" NOT NULL,
	department_id text COLLATE "C" NOT NULL,
	code          text COLLATE "C" NOT NULL,
	description   text COLLATE "C" NOT NULL,
	client        text COLLATE "C" NOT NULL,
	state         text COLLATE "C" NOT NULL,
	desonerado    boolean NOT NULL,
	bdi           numeric NOT NULL,
	bdi_mode      text COLLATE "C" NOT NULL,
	rounding      text COLLATE "C" NOT NULL,
	node_seq      int NOT NULL,
	-- Whether the budget has a list of banks and a tree at all (nil and
	-- empty differ).
	has_banks     boolean NOT NULL,
	has_items     boolean NOT NULL,
	code_fold        text COLLATE "C" NOT NULL,
	code_key         bytea NOT NULL,
	description_fold text COLLATE "C" NOT NULL,
	description_ci   text COLLATE "C" NOT NULL,
	client_fold      text COLLATE "C" NOT NULL,
	client_ci        text COLLATE "C" NOT NULL,
	state_fold       text COLLATE "C" NOT NULL,
	state_ci         text COLLATE "C" NOT NULL,
	created_at    timestamptz NOT NULL,
	created_at_ns int NOT NULL,
	updated_at    timestamptz NOT NULL,
	updated_at_ns int NOT NULL,
	PRIMARY KEY (company_id, id)
);
CREATE UNIQUE INDEX budgets_id ON budgets (id);
CREATE UNIQUE INDEX budgets_code ON budgets (company_id, code);
CREATE INDEX budgets_code_order ON budgets (company_id, code_key, code, id);
CREATE INDEX budgets_description ON budgets (company_id, description_fold, description, id);
CREATE INDEX budgets_client ON budgets (company_id, client_fold, client, id);
CREATE INDEX budgets_state ON budgets (company_id, state_fold, state, id);
CREATE INDEX budgets_state_ci ON budgets (company_id, state_ci);
CREATE INDEX budgets_created ON budgets (company_id, created_at, created_at_ns, id);
CREATE INDEX budgets_updated ON budgets (company_id, updated_at, updated_at_ns, id);

CREATE TABLE budget_banks (
	company_id text COLLATE "C" NOT NULL,
	budget_id  text COLLATE "C" NOT NULL,
	pos        int NOT NULL,
	name       text COLLATE "C" NOT NULL,
	state      text COLLATE "C" NOT NULL,
	month      text COLLATE "C" NOT NULL,
	region     text COLLATE "C" NOT NULL,
	report     boolean NOT NULL,
	PRIMARY KEY (company_id, budget_id, pos),
	FOREIGN KEY (company_id, budget_id) REFERENCES budgets (company_id, id) ON DELETE CASCADE
);

-- The tree of a budget, one row per node in depth-first order (pos); parent
-- is the pos of the node's parent, -1 at the top.
CREATE TABLE budget_nodes (
	company_id  text COLLATE "C" NOT NULL,
	budget_id   text COLLATE "C" NOT NULL,
	pos         int NOT NULL,
	parent      int NOT NULL,
	id          text COLLATE "C" NOT NULL,
	kind        text COLLATE "C" NOT NULL,
	description text NOT NULL,
	bank        text COLLATE "C" NOT NULL,
	code        text COLLATE "C" NOT NULL,
	quantity    numeric, -- NULL for zero, as the bbolt store leaves it out
	PRIMARY KEY (company_id, budget_id, pos),
	FOREIGN KEY (company_id, budget_id) REFERENCES budgets (company_id, id) ON DELETE CASCADE
);
-- Which budgets use an item, for the "still used by" checks.
CREATE INDEX budget_nodes_code ON budget_nodes (company_id, bank, code);

-- The number of each company's records of each list (groups, resources,
-- compositions, budgets), in shards: a write adds its +1 or -1 to one shard
-- picked at random, so that concurrent writers of one company seldom touch
-- the same row, and the total of a list without conditions is the sum of at
-- most 16 rows instead of a count of the company's records.
CREATE TABLE list_counts (
	company_id text COLLATE "C" NOT NULL,
	list       text COLLATE "C" NOT NULL,
	shard      int NOT NULL,
	n          bigint NOT NULL,
	PRIMARY KEY (company_id, list, shard)
);
