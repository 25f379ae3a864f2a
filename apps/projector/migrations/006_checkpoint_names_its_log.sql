-- Which event log the read models were projected from: the id of that log's first event,
-- written with the first checkpoint. A read database pointed at another log (a new
-- VERDICT_HOME, another DATABASE_URL) kept its checkpoint and silently skipped every event of
-- the new log up to it; the projector now refuses to follow a log whose first event differs.
-- Rows written before this column existed hold null and take the log they next follow.
ALTER TABLE projector_checkpoints ADD COLUMN log_first_event text;
