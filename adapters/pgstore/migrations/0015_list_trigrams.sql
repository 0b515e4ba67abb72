-- Lists asked of an index (issue 29): text filters (a folded text contains
-- each word of the value) answered from trigram indexes on the folded
-- columns, which serve `col_fold LIKE '%word%'` (pgstore/query.go) without
-- reading the company's rows. pg_trgm ships with PostgreSQL (contrib) and
-- is a trusted extension: the owner of the database may create it
-- (docs/operations.md).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX groups_description_trgm ON groups USING gin (description_fold gin_trgm_ops);
CREATE INDEX resources_code_trgm ON resources USING gin (code_fold gin_trgm_ops);
CREATE INDEX resources_description_trgm ON resources USING gin (description_fold gin_trgm_ops);
CREATE INDEX compositions_code_trgm ON compositions USING gin (code_fold gin_trgm_ops);
CREATE INDEX compositions_description_trgm ON compositions USING gin (description_fold gin_trgm_ops);
CREATE INDEX budgets_code_trgm ON budgets USING gin (code_fold gin_trgm_ops);
CREATE INDEX budgets_description_trgm ON budgets USING gin (description_fold gin_trgm_ops);
CREATE INDEX budgets_client_trgm ON budgets USING gin (client_fold gin_trgm_ops);
