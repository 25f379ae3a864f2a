-- A run's row, and the evaluation's run_count / latest run, came from RunScheduled, appended to
-- the evaluation's stream before the run stream's first event (RunStarted, ReportImported). A
-- process that died between the two appends left a PENDING row that never started as the
-- evaluation's latest run. Both now come from the run stream's first event, so a PENDING row
-- is one whose run never started (or whose first event the projector has not reached yet; it
-- makes the row again when it does). Such rows go, and each evaluation's count and latest run
-- are taken again from the runs that remain: what a rebuild from the log gives.
DELETE FROM runs WHERE status = 'PENDING';
UPDATE evaluations SET
  run_count = coalesce((SELECT max(r.number) FROM runs r WHERE r.evaluation_id = evaluations.id), 0),
  latest_run_number = (SELECT max(r.number) FROM runs r WHERE r.evaluation_id = evaluations.id),
  latest_run_id = (SELECT r.id FROM runs r WHERE r.evaluation_id = evaluations.id ORDER BY r.number DESC, r.id LIMIT 1);
