-- What a result's judge calls were, by kind, and the model they name, so a run's usage can say
-- its judge's calls, tokens and cost per kind (score, recommend, verdict, define) and the judge's
-- model with one aggregate over small columns, never reading judge_exchanges (every raw answer).
-- judge_by_kind: {kind: {calls, input_tokens, output_tokens, cost}} from a score's judge
-- exchanges; for an imported result {kind: {calls}} from its judge_usage.by_kind (a report counts
-- calls per kind, not their tokens or cost); NULL when the judge made no call. judge_model: the
-- first model the exchanges' usage names (an imported result's judge_usage.model). Rows projected
-- before it hold NULL: PROJECTION_VERSION 3 fills them, as the projector rebuilds read models of
-- version 2 from the log on start.
ALTER TABLE results ADD COLUMN judge_by_kind jsonb, ADD COLUMN judge_model text;
