-- How many times the read models were rebuilt: one row for the read database (every rebuild,
-- whatever the projector's name, truncates every read model). A rebuild raises `generation` in the
-- transaction that truncates the read models (projectorRebuild.ts), which on PostgreSQL is the
-- whole rebuild's, so it shows with the rebuilt rows and never before them; embedded, where the
-- log is applied again batch by batch, it is raised again once the rebuild has caught up. Caches
-- of finished runs (the API's, ReadModels') assumed those rows never change, but a new projection
-- version changes them (2 filled runs.host_run_id): they read this row, at most once a second,
-- and forget what they kept when it changed. No row: never rebuilt (generation 0).
CREATE TABLE projector_rebuilds (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  generation bigint NOT NULL
);
