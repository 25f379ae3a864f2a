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

-- Appends in one round trip. The guard is the unique (stream_id, stream_version) index, the way
-- a plain table of events would do it: the append claims the next version by inserting its first
-- event with ON CONFLICT DO NOTHING. Claimants of the same version wait for each other on that
-- index entry (all released together when the holder ends, no queue on a row lock); the one that
-- got it inserts the rest and moves streams.version; the others lose without having written
-- anything, so their commit costs no disk flush. "exact" and "noStream" then report a conflict;
-- "any" and "streamExists" re-read the version and claim again. There is no read-then-write
-- race: the claim itself is the check. A conflict is returned as a row rather than raised, so
-- a pooled connection survives it.
-- p_events: a JSON array of {id, type, schemaVersion, data, metadata}.
CREATE FUNCTION verdict_append(p_stream text, p_expected text, p_expected_version bigint, p_events jsonb)
RETURNS TABLE (outcome text, stream_version bigint, transaction_id xid8, global_position bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_count integer := jsonb_array_length(p_events);
  v_first jsonb := p_events->0;
  v_current bigint;
  v_first_position bigint;
  v_last_position bigint;
BEGIN
  LOOP
    -- A retried append (same message ids) returns what the first one recorded and writes nothing.
    IF EXISTS (SELECT 1 FROM messages m WHERE m.message_id = (v_first->>'id')::uuid) THEN
      RETURN QUERY SELECT * FROM verdict_recorded_append(p_stream, p_events);
      RETURN;
    END IF;

    SELECT s.version INTO v_current FROM streams s WHERE s.stream_id = p_stream;
    IF (p_expected = 'noStream' AND v_current IS NOT NULL)
       OR (p_expected = 'streamExists' AND v_current IS NULL)
       OR (p_expected = 'exact' AND v_current IS DISTINCT FROM p_expected_version) THEN
      RETURN QUERY SELECT 'conflict'::text, v_current, NULL::xid8, NULL::bigint;
      RETURN;
    END IF;
    v_current := coalesce(v_current, -1);

    INSERT INTO messages (stream_id, stream_version, message_id, type, schema_version, data, metadata)
    VALUES (p_stream, v_current + 1, (v_first->>'id')::uuid, v_first->>'type', (v_first->>'schemaVersion')::integer,
            v_first->'data', v_first->'metadata')
    ON CONFLICT ON CONSTRAINT messages_stream_version_unique DO NOTHING
    RETURNING messages.global_position INTO v_first_position;
    EXIT WHEN v_first_position IS NOT NULL;
    -- Lost the claim to a concurrent append. The next statement's snapshot sees its commit, so
    -- the next pass either reports the conflict or (any, streamExists) claims the next version.
  END LOOP;

  IF v_count > 1 THEN
    -- ORDER BY makes sequence values follow stream versions within the batch.
    WITH inserted AS (
      INSERT INTO messages (stream_id, stream_version, message_id, type, schema_version, data, metadata)
      SELECT p_stream, v_current + e.ord, (e.value->>'id')::uuid, e.value->>'type',
             (e.value->>'schemaVersion')::integer, e.value->'data', e.value->'metadata'
        FROM jsonb_array_elements(p_events) WITH ORDINALITY AS e(value, ord)
       WHERE e.ord > 1
       ORDER BY e.ord
      RETURNING messages.global_position
    )
    SELECT max(i.global_position) INTO v_last_position FROM inserted i;
  END IF;

  -- Holding version v_current + 1, this append is the only one that may move the stream's row.
  IF v_current < 0 THEN
    INSERT INTO streams (stream_id, version) VALUES (p_stream, v_count - 1);
  ELSE
    UPDATE streams s SET version = v_current + v_count WHERE s.stream_id = p_stream;
  END IF;

  -- No NOTIFY here: a notifying transaction holds a global lock through its commit's WAL flush,
  -- which serializes every concurrent append (no group commit). The adapter sends the wake-up
  -- after the commit instead (postgresEventStore.ts).
  RETURN QUERY SELECT 'appended'::text, v_current + v_count, pg_current_xact_id(), coalesce(v_last_position, v_first_position);
END;
$fn$;
