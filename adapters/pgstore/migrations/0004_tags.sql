-- The free tags of resources, compositions and budgets, in the order the
-- client gave them; empty for none.
ALTER TABLE resources ADD COLUMN tags text[] COLLATE "C" NOT NULL DEFAULT '{}';
ALTER TABLE compositions ADD COLUMN tags text[] COLLATE "C" NOT NULL DEFAULT '{}';
ALTER TABLE budgets ADD COLUMN tags text[] COLLATE "C" NOT NULL DEFAULT '{}';
