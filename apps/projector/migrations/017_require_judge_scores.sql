-- An evaluation's require_judge_scores (EvaluationCreated, session 44) and the value each run froze
-- (RunStarted). Events recorded before it hold none and read false, so every row projected
-- before reads false here too, which is what a rebuild from the log would compute: no projection
-- version. An imported run's report does not say (null), as the projector writes it.
ALTER TABLE evaluations ADD COLUMN require_judge_scores boolean NOT NULL DEFAULT false;
-- The runs' column defaults to false as well (a metadata-only change, no rewrite of the table),
-- so a projector of the build before, still running during a rolling upgrade, writes what a
-- rebuild would; only the imported runs are set to null.
ALTER TABLE runs ADD COLUMN require_judge_scores boolean DEFAULT false;
UPDATE runs SET require_judge_scores = NULL WHERE origin = 'imported';
