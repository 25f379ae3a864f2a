-- Events the read database refused with an error that retrying cannot fix (a data exception,
-- a constraint, a size limit): each is recorded here and passed over, so one such event does
-- not hold back every read model behind it. The log still holds the event; rebuild meets it
-- again and records it again.
CREATE TABLE projector_rejections (
  name text NOT NULL,
  commit_position bigint NOT NULL,
  prepare_position bigint NOT NULL,
  stream_id text NOT NULL,
  stream_version bigint NOT NULL,
  type text NOT NULL,
  sql_state text NOT NULL,
  error text NOT NULL,
  PRIMARY KEY (name, commit_position, prepare_position)
);
