-- A stamp per stored composition (app.CompositionStamper): a number drawn
-- afresh from a sequence each time the row is written (every put inserts
-- it again), so two reads of the same stamp are the same stored record.
CREATE SEQUENCE composition_stamps;
ALTER TABLE compositions ADD COLUMN stamp bigint NOT NULL DEFAULT nextval('composition_stamps');
