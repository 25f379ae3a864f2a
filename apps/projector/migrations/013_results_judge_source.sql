-- Where a result's judge usage comes from, as the run's report reads it (apps/worker runReport):
-- 'meter', the platform's judge exchanges; 'reported', the replay's own metadata.judge_usage
-- (an agent's or a host's record, which the report takes instead of the exchanges when the
-- replay carries one; an imported result's always); NULL when it has none. A run's usage says
-- METER, REPORTED or MIXED from it. The judge_* figures of such a result are now its
-- metadata.judge_usage's, not its exchanges'. Rows projected before hold NULL: PROJECTION_VERSION
-- 5 fills them, as the projector rebuilds read models of version 4 from the log on start.
ALTER TABLE results ADD COLUMN judge_source text;
