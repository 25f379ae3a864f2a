-- Several appends in one call and one transaction (the SQL stores coalesce concurrent appends
-- into it). Each item is appended exactly as verdict_append would, in array order, and answered
-- with its index: a conflict is that item's outcome and does not stop the others. An exception
-- (a retried append whose ids another append recorded) aborts the whole call; the adapter then
-- repeats the items one by one so only that append fails.
CREATE FUNCTION verdict_append_many(p_appends jsonb)
RETURNS TABLE (idx integer, outcome text, stream_version bigint, transaction_id xid8, global_position bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_item jsonb;
  v_i integer := 0;
BEGIN
  FOR v_item IN SELECT value FROM jsonb_array_elements(p_appends) LOOP
    RETURN QUERY SELECT v_i, a.outcome, a.stream_version, a.transaction_id, a.global_position
      FROM verdict_append(v_item->>'stream', v_item->>'mode', (v_item->>'version')::bigint, v_item->'events') a;
    v_i := v_i + 1;
  END LOOP;
END;
$fn$;
