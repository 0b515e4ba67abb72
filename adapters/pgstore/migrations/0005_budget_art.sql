-- The budget's ART/RRT number and issue date ("YYYY-MM-DD"); '' for none.
-- The date is kept as the text the API reads and writes, checked by the
-- domain before it is stored.
ALTER TABLE budgets ADD COLUMN art text NOT NULL DEFAULT '';
ALTER TABLE budgets ADD COLUMN issue_date text NOT NULL DEFAULT '';
