-- A budget's own labour charges percentage (NULL: the bank's prices): its
-- bank labour resources, and the labour inside its bank compositions, are
-- priced at the price without charges × (1 + percentage / 100).
ALTER TABLE budgets ADD COLUMN labour_charges numeric;
