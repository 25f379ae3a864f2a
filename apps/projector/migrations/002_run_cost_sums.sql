-- The exact (numeric) sums behind runs.agent_cost and runs.judge_cost (the judge's without the
-- verdict's own exchange), so a batch adds its results' costs to them instead of summing every
-- result row of the run again: float8 additions would depend on the order of the rows, numeric
-- ones do not, so a rebuild still gives the same costs.
ALTER TABLE runs ADD COLUMN agent_cost_sum numeric, ADD COLUMN judge_cost_sum numeric;
UPDATE runs SET
  agent_cost_sum = (SELECT sum(r.cost::numeric) FROM results r WHERE r.run_id = runs.id),
  judge_cost_sum = (SELECT sum(r.judge_cost::numeric) FROM results r WHERE r.run_id = runs.id);
