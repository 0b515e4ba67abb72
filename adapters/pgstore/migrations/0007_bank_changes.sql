-- Reference banks' change logs (Caixa's monthly manutenções): shared
-- reference data like the editions, one row per line of a bank's log for a
-- month (YYYY-MM), in the order of the file (seq).
CREATE TABLE bank_changes (
    bank        text COLLATE "C" NOT NULL,
    month       text COLLATE "C" NOT NULL,
    seq         integer NOT NULL,
    state       text COLLATE "C" NOT NULL DEFAULT '',
    composition boolean NOT NULL,
    code        text COLLATE "C" NOT NULL,
    description text NOT NULL,
    kind        text COLLATE "C" NOT NULL,
    text        text NOT NULL,
    PRIMARY KEY (bank, month, seq)
);
CREATE INDEX bank_changes_code ON bank_changes (bank, month, code);
