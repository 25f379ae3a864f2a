-- A result row is written when its run starts (pending) and updated when its pair is replayed
-- and scored. With every page full and status indexed, each update put the new row version on
-- another page and added an entry to every index of the table: the projector's largest cost on
-- a run. Without an index on status, and with room left on each page, the update is a
-- heap-only (HOT) one: the new version stays on its page and no index changes. A filter on
-- status reads the run's rows through the primary key (run_id, n) instead, as a finished run's
-- listing does anyway. fillfactor applies to pages written from now on.
DROP INDEX IF EXISTS results_run_status;
ALTER TABLE results SET (fillfactor = 45);
