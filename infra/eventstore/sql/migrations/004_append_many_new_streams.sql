-- verdict_append_many, set-based when every item creates a new stream (the worker's usual batch:
-- one new pair stream per item, expected version "no stream"): one INSERT for all the events
-- and one for the streams, instead of verdict_append's five statements per item. It applies only
-- when the batch names each stream once, none of them exists and no first message id is
-- recorded; anything else (a retry, a conflict, another expected version) takes the per-item
-- loop of 003. A concurrent append that creates one of these streams first makes the INSERT
-- fail on messages_stream_version_unique; the whole call then fails, nothing is written, and
-- the adapter repeats the items one by one (each then gets its own answer).
CREATE OR REPLACE FUNCTION verdict_append_many(p_appends jsonb)
RETURNS TABLE (idx integer, outcome text, stream_version bigint, transaction_id xid8, global_position bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_item jsonb;
  v_i integer := 0;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM jsonb_array_elements(p_appends) i WHERE i.value->>'mode' IS DISTINCT FROM 'noStream')
     AND (SELECT count(DISTINCT i.value->>'stream') = count(*) FROM jsonb_array_elements(p_appends) i)
     AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(p_appends) i JOIN streams s ON s.stream_id = i.value->>'stream')
     AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(p_appends) i JOIN messages m ON m.message_id = (i.value->'events'->0->>'id')::uuid)
  THEN
    RETURN QUERY
    WITH items AS (
      SELECT (i.ord - 1)::integer AS idx, i.value->>'stream' AS stream, i.value->'events' AS events
        FROM jsonb_array_elements(p_appends) WITH ORDINALITY AS i(value, ord)
    ), inserted AS (
      -- ORDER BY makes sequence values follow the batch, then stream versions.
      INSERT INTO messages (stream_id, stream_version, message_id, type, schema_version, data, metadata)
      SELECT it.stream, e.ord - 1, (e.value->>'id')::uuid, e.value->>'type', (e.value->>'schemaVersion')::integer,
             e.value->'data', e.value->'metadata'
        FROM items it, jsonb_array_elements(it.events) WITH ORDINALITY AS e(value, ord)
       ORDER BY it.idx, e.ord
      RETURNING messages.stream_id, messages.stream_version, messages.global_position
    ), created AS (
      INSERT INTO streams (stream_id, version)
      SELECT it.stream, jsonb_array_length(it.events) - 1 FROM items it
    )
    SELECT it.idx, 'appended'::text, max(ins.stream_version), pg_current_xact_id(), max(ins.global_position)
      FROM items it JOIN inserted ins ON ins.stream_id = it.stream
     GROUP BY it.idx
     ORDER BY it.idx;
    RETURN;
  END IF;
  FOR v_item IN SELECT value FROM jsonb_array_elements(p_appends) LOOP
    RETURN QUERY SELECT v_i, a.outcome, a.stream_version, a.transaction_id, a.global_position
      FROM verdict_append(v_item->>'stream', v_item->>'mode', (v_item->>'version')::bigint, v_item->'events') a;
    v_i := v_i + 1;
  END LOOP;
END;
$fn$;
