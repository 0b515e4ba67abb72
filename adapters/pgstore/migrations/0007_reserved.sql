-- Reserved for a migration being written at the same time (0007); it
-- changes nothing. Replaced by that migration when both are merged.
SELECT 1;
