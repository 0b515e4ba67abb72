-- Reference banks' labour charges (encargos sociais) tables: one per bank,
-- state, month and regime (key BANK/UF/YYYY-MM/regime), shared reference
-- data like editions; the rows in the file's order, percentages exact
-- (numeric keeps the scale the file gave).
CREATE TABLE charges_tables (
	key    text COLLATE "C" PRIMARY KEY,
	bank   text COLLATE "C" NOT NULL,
	state  text COLLATE "C" NOT NULL,
	month  text COLLATE "C" NOT NULL,
	regime smallint NOT NULL,
	items  text[]
);

CREATE TABLE charges_rows (
	table_key   text COLLATE "C" NOT NULL REFERENCES charges_tables (key) ON DELETE CASCADE,
	position    int NOT NULL,
	code        text COLLATE "C" NOT NULL,
	description text NOT NULL,
	unit        text NOT NULL,
	monthly     boolean NOT NULL,
	items       numeric[],
	total       numeric NOT NULL,
	PRIMARY KEY (table_key, position)
);
