-- The event store (DESIGN.md "PostgreSQL event store"; STACK.md reading rule).
-- streams: one row per stream with its current version (versions count from 0; a stream with
-- one event has version 0). messages: the log. Each message records the id of the transaction
-- that wrote it; readers only return rows whose transaction id is below the oldest transaction
-- still running (pg_snapshot_xmin), ordered by (transaction_id, global_position), so a slow
-- transaction can never commit "behind" a reader's checkpoint.

CREATE TABLE streams (
  stream_id text PRIMARY KEY,
  version bigint NOT NULL
);

CREATE TABLE messages (
  global_position bigserial PRIMARY KEY,
  stream_id text NOT NULL,
  stream_version bigint NOT NULL,
  message_id uuid NOT NULL UNIQUE,
  type text NOT NULL,
  schema_version integer NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL,
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT messages_stream_version_unique UNIQUE (stream_id, stream_version)
);

-- readAll and subscriptions order and page by this pair.
CREATE INDEX messages_log_order ON messages (transaction_id, global_position);

-- What an earlier append of these message ids recorded (its last event), or no row. Ids recorded
-- by some other append (another stream, or only some of them) are an error, not a retry.
CREATE FUNCTION verdict_recorded_append(p_stream text, p_events jsonb)
RETURNS TABLE (outcome text, stream_version bigint, transaction_id xid8, global_position bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_ids uuid[];
  v_recorded integer;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM messages m WHERE m.message_id = (p_events->0->>'id')::uuid) THEN
    RETURN;
  END IF;
  v_ids := ARRAY(SELECT (e->>'id')::uuid FROM jsonb_array_elements(p_events) e);
  SELECT count(*) INTO v_recorded FROM messages m WHERE m.message_id = ANY (v_ids) AND m.stream_id = p_stream;
  IF v_recorded <> jsonb_array_length(p_events) THEN
    RAISE EXCEPTION 'append to %: message ids were recorded by a different append', p_stream USING ERRCODE = 'unique_violation';
  END IF;
  RETURN QUERY SELECT 'duplicate'::text, m.stream_version, m.transaction_id, m.global_position
    FROM messages m WHERE m.message_id = ANY (v_ids) ORDER BY m.global_position DESC LIMIT 1;
END;
$fn$;

-- Appends in one round trip. The expected version is the WHERE clause of the statement that
-- moves the stream's version (a conditional UPDATE, or an INSERT ... ON CONFLICT DO NOTHING for
-- a new stream), so there is no read-then-write race: a concurrent append waits on the row,
-- then the condition is re-checked against the committed version. A loser writes nothing and
-- holds no lock, so its (read-only) commit costs no disk flush. A conflict is returned as a row
-- rather than raised, so a pooled connection survives it.
-- p_events: a JSON array of {id, type, schemaVersion, data, metadata}.
CREATE FUNCTION verdict_append(p_stream text, p_expected text, p_expected_version bigint, p_events jsonb)
RETURNS TABLE (outcome text, stream_version bigint, transaction_id xid8, global_position bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_count integer := jsonb_array_length(p_events);
  v_base bigint;
  v_actual bigint;
BEGIN
  -- A retried append (same message ids) returns what the first one recorded and writes nothing.
  IF EXISTS (SELECT 1 FROM messages m WHERE m.message_id = (p_events->0->>'id')::uuid) THEN
    RETURN QUERY SELECT * FROM verdict_recorded_append(p_stream, p_events);
    RETURN;
  END IF;

  IF p_expected = 'noStream' THEN
    INSERT INTO streams (stream_id, version) VALUES (p_stream, v_count - 1) ON CONFLICT ON CONSTRAINT streams_pkey DO NOTHING;
    IF FOUND THEN v_base := -1; END IF;
  ELSIF p_expected = 'exact' THEN
    UPDATE streams s SET version = s.version + v_count WHERE s.stream_id = p_stream AND s.version = p_expected_version
      RETURNING s.version - v_count INTO v_base;
  ELSE
    UPDATE streams s SET version = s.version + v_count WHERE s.stream_id = p_stream RETURNING s.version - v_count INTO v_base;
    IF NOT FOUND AND p_expected = 'any' THEN
      INSERT INTO streams (stream_id, version) VALUES (p_stream, v_count - 1) ON CONFLICT ON CONSTRAINT streams_pkey DO NOTHING;
      IF FOUND THEN
        v_base := -1;
      ELSE -- created concurrently (and committed, or the insert would have gone through)
        UPDATE streams s SET version = s.version + v_count WHERE s.stream_id = p_stream RETURNING s.version - v_count INTO v_base;
      END IF;
    END IF;
  END IF;

  IF v_base IS NULL THEN
    -- The winner may have been this very append, retried concurrently.
    RETURN QUERY SELECT * FROM verdict_recorded_append(p_stream, p_events);
    IF FOUND THEN
      RETURN;
    END IF;
    SELECT s.version INTO v_actual FROM streams s WHERE s.stream_id = p_stream;
    RETURN QUERY SELECT 'conflict'::text, v_actual, NULL::xid8, NULL::bigint;
    RETURN;
  END IF;

  -- ORDER BY makes sequence values follow stream versions within the batch.
  RETURN QUERY WITH inserted AS (
    INSERT INTO messages (stream_id, stream_version, message_id, type, schema_version, data, metadata)
    SELECT p_stream, v_base + e.ord, (e.value->>'id')::uuid, e.value->>'type',
           (e.value->>'schemaVersion')::integer, e.value->'data', e.value->'metadata'
      FROM jsonb_array_elements(p_events) WITH ORDINALITY AS e(value, ord)
     ORDER BY e.ord
    RETURNING messages.global_position
  )
  SELECT 'appended'::text, v_base + v_count, pg_current_xact_id(), max(i.global_position) FROM inserted i;
  -- No NOTIFY here: a notifying transaction holds a global lock through its commit's WAL flush,
  -- which serializes every concurrent append (no group commit). The adapter sends the wake-up
  -- after the commit instead (postgresEventStore.ts).
END;
$fn$;
