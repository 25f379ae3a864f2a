-- Judge-defined KPIs (reference-platform §1 #19). evaluations.kpis: the KPIs its judge defined
-- (KpisDefined), kept apart so a catalog sync, which replaces `criteria`, keeps them in it;
-- evaluations.kpi_provenance: config.kpi_provenance { judge, defined_at }. runs.kpi_authoring: how
-- a judge_defined run that started without KPIs settled them (KpiAuthoringRecorded: its outcome,
-- message, reason and define call), read by Run.kpiAuthoring and counted in the run's judge usage.
-- Numbered 015: 003-014 were taken by migrations since folded into 001 and 002.
ALTER TABLE evaluations ADD COLUMN kpis jsonb NOT NULL DEFAULT '[]', ADD COLUMN kpi_provenance jsonb;
ALTER TABLE runs ADD COLUMN kpi_authoring jsonb;
