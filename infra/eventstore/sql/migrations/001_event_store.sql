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

-- Appends in one round trip. The stream row is locked first (created when missing), so appends
-- to one stream serialize on it and every check below sees the latest committed version: there
-- is no read-then-write race. A conflict is returned as a row rather than raised, so a pooled
-- connection survives it. The placeholder row of a stream that a refused append created is
-- removed again; version -1 means "no stream" everywhere.
-- p_events: a JSON array of {id, type, schemaVersion, data, metadata}.
CREATE FUNCTION verdict_append(p_stream text, p_expected text, p_expected_version bigint, p_events jsonb)
RETURNS TABLE (outcome text, stream_version bigint, transaction_id xid8, global_position bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_count integer := jsonb_array_length(p_events);
  v_current bigint;
  v_ids uuid[];
  v_recorded integer;
BEGIN
  SELECT s.version INTO v_current FROM streams s WHERE s.stream_id = p_stream FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO streams (stream_id, version) VALUES (p_stream, -1) ON CONFLICT ON CONSTRAINT streams_pkey DO NOTHING;
    SELECT s.version INTO v_current FROM streams s WHERE s.stream_id = p_stream FOR UPDATE;
  END IF;

  -- A retried append (same message ids) returns what the first one recorded and writes nothing.
  IF v_current >= 0 AND EXISTS (SELECT 1 FROM messages m WHERE m.message_id = (p_events->0->>'id')::uuid) THEN
    v_ids := ARRAY(SELECT (e->>'id')::uuid FROM jsonb_array_elements(p_events) e);
    SELECT count(*) INTO v_recorded FROM messages m WHERE m.message_id = ANY (v_ids) AND m.stream_id = p_stream;
    IF v_recorded <> v_count THEN
      RAISE EXCEPTION 'append to %: message ids were recorded by a different append', p_stream USING ERRCODE = 'unique_violation';
    END IF;
    RETURN QUERY SELECT 'duplicate'::text, m.stream_version, m.transaction_id, m.global_position
      FROM messages m WHERE m.message_id = ANY (v_ids) ORDER BY m.global_position DESC LIMIT 1;
    RETURN;
  END IF;

  IF (p_expected = 'noStream' AND v_current >= 0)
     OR (p_expected = 'streamExists' AND v_current < 0)
     OR (p_expected = 'exact' AND v_current <> p_expected_version) THEN
    IF v_current < 0 THEN
      DELETE FROM streams s WHERE s.stream_id = p_stream AND s.version < 0;
    END IF;
    RETURN QUERY SELECT 'conflict'::text, CASE WHEN v_current < 0 THEN NULL ELSE v_current END, NULL::xid8, NULL::bigint;
    RETURN;
  END IF;

  UPDATE streams s SET version = v_current + v_count WHERE s.stream_id = p_stream;
  -- ORDER BY makes sequence values follow stream versions within the batch.
  RETURN QUERY WITH inserted AS (
    INSERT INTO messages (stream_id, stream_version, message_id, type, schema_version, data, metadata)
    SELECT p_stream, v_current + e.ord, (e.value->>'id')::uuid, e.value->>'type',
           (e.value->>'schemaVersion')::integer, e.value->'data', e.value->'metadata'
      FROM jsonb_array_elements(p_events) WITH ORDINALITY AS e(value, ord)
     ORDER BY e.ord
    RETURNING messages.global_position
  )
  SELECT 'appended'::text, v_current + v_count, pg_current_xact_id(), max(i.global_position) FROM inserted i;
  PERFORM pg_notify('verdict_events', '');
END;
$fn$;
