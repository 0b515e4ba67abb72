-- Own labour charges: a composition's own social charges percentage (NULL:
-- the bank's prices), and a bank resource's price without charges (SINAPI's
-- "sem encargos" sheets; NULL when the bank published none).
ALTER TABLE compositions ADD COLUMN labour_charges numeric;
ALTER TABLE bank_resources ADD COLUMN base numeric;
