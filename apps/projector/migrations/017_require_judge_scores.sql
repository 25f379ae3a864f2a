-- An evaluation's require_judge_scores (EvaluationCreated, session 44) and the value each run froze
-- (RunStarted). Events recorded before it hold none and read false, so every row projected
-- before reads false here too, which is what a rebuild from the log would compute: no projection
-- version. An imported run's report does not say (null), as the projector writes it.
ALTER TABLE evaluations ADD COLUMN require_judge_scores boolean NOT NULL DEFAULT false;
ALTER TABLE runs ADD COLUMN require_judge_scores boolean;
UPDATE runs SET require_judge_scores = false WHERE origin <> 'imported';
