-- Placeholder: keeps the migrations contiguous before 0011 on this branch;
-- removed when the branches are merged (0010 is another part's number).
SELECT 1;
