-- Which projection code made the read models: PROJECTION_VERSION (projection/projectionVersion.ts)
-- of the projector that projected them from the log's start, written with the first checkpoint.
-- Migrations change the tables, not what earlier code computed into them (an imported run's judge
-- usage and model order, a run's scheduled_at, 5f962cf, 4c2a777, 4466d59): a read database
-- upgraded in place kept those rows while a rebuild gave others, and the API served the stale
-- ones. A projector whose version differs from the stored one rebuilds from the log on start.
-- Rows written before this column hold null: projected by older code, rebuilt the same way.
ALTER TABLE projector_checkpoints ADD COLUMN projection_version integer;
