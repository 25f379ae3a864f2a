-- The run_id an imported run was imported with: the envelope's (the host's name for the run), which
-- GET /api/evaluation_reports/:run_id reads it back by and GraphQL's Run.hostRunId serves, so a
-- client listing runs maps them to its own. ReportImported's host_run_id, or for a run imported
-- before tenant keying (host_run_id null) its run_id, which was the envelope's own; null for a run
-- started here. Rows projected before it hold null: PROJECTION_VERSION 2 fills it, as the
-- projector rebuilds read models of version 1 from the log on start.
ALTER TABLE runs ADD COLUMN host_run_id text;
