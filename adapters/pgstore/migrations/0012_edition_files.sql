-- The official files an edition was read from (domain.SourceFile: name,
-- size, SHA-256, title lines), as a JSON array; NULL for none.
ALTER TABLE editions ADD COLUMN files jsonb;
