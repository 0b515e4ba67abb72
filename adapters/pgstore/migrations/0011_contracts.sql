-- Contracts made from frozen budget versions, with their measurements and
-- amendments: each record stored whole as its JSON (decimals as exact
-- strings), with the columns the store looks records up by. A contract's
-- row is what a write of its measurements or amendments locks (SELECT …
-- FOR UPDATE), so that two such writes run one after the other.
CREATE TABLE contracts (
	id         text COLLATE "C" PRIMARY KEY,
	company_id text COLLATE "C" NOT NULL,
	body       jsonb NOT NULL
);
CREATE INDEX contracts_company ON contracts (company_id, id);

CREATE TABLE contract_measurements (
	contract_id text COLLATE "C" NOT NULL REFERENCES contracts (id) ON DELETE CASCADE,
	number      int NOT NULL,
	body        jsonb NOT NULL,
	PRIMARY KEY (contract_id, number)
);

CREATE TABLE contract_amendments (
	contract_id text COLLATE "C" NOT NULL REFERENCES contracts (id) ON DELETE CASCADE,
	number      int NOT NULL,
	body        jsonb NOT NULL,
	PRIMARY KEY (contract_id, number)
);
