-- The reading bound no longer waits behind a transaction that ended without writing `messages`.
-- Migration 002 counted every in-progress xid of the reader's snapshot whose backend it could
-- not find, because such a transaction ended after the snapshot was taken and, had it been one
-- of ours, its rows would be missing from the read. But most are another database's: with a busy
-- neighbour on the cluster, 6% of reads right after an append came back without that append.
--
-- verdict_ended_without_messages tells, for one xid, whether it is certain that the transaction
-- has ended and left no row in `messages`: aborted, or committed with no row under a fresh
-- snapshot. It is VOLATILE so its query takes a new snapshot (READ COMMITTED), taken after the
-- commit it asks about. Anything else (still running, its xid not yet locked, status unknown, or
-- a REPEATABLE READ caller whose snapshot would not be fresh) keeps holding readers back.
CREATE FUNCTION verdict_ended_without_messages(p_xid xid8) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_status text := pg_xact_status(p_xid);
BEGIN
  IF v_status = 'aborted' THEN
    RETURN true;
  END IF;
  IF v_status IS DISTINCT FROM 'committed' OR current_setting('transaction_isolation') <> 'read committed' THEN
    RETURN false;
  END IF;
  RETURN NOT EXISTS (SELECT 1 FROM messages WHERE transaction_id = p_xid);
END;
$fn$;

-- The locks are read once, before any status is asked. The order matters: a transaction releases
-- its xid lock only after it has left the running set, so an xid missing from the locks has ended
-- or has not yet taken its lock (still running: pg_xact_status says so). Asking the status first
-- would let a transaction end in between and be counted for nothing.
CREATE OR REPLACE FUNCTION verdict_visible_bound() RETURNS xid8
LANGUAGE plpgsql STABLE AS $fn$
DECLARE
  v_snapshot pg_snapshot := pg_current_snapshot();
  v_elsewhere xid[];
  v_locked xid[];
  v_xid xid8;
BEGIN
  IF pg_snapshot_xmin(v_snapshot) = pg_snapshot_xmax(v_snapshot) THEN
    RETURN pg_snapshot_xmax(v_snapshot);
  END IF;
  SELECT coalesce(array_agg(l.transactionid), '{}'),
         coalesce(array_agg(l.transactionid) FILTER (WHERE a.pid IS NOT NULL AND a.datname IS DISTINCT FROM current_database()), '{}')
    INTO v_locked, v_elsewhere
    FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
   WHERE l.locktype = 'transactionid' AND l.mode = 'ExclusiveLock' AND l.granted;
  FOR v_xid IN SELECT x FROM pg_snapshot_xip(v_snapshot) AS x ORDER BY x LOOP
    CONTINUE WHEN xid(v_xid) = ANY (v_elsewhere);
    CONTINUE WHEN NOT xid(v_xid) = ANY (v_locked) AND verdict_ended_without_messages(v_xid);
    RETURN v_xid;
  END LOOP;
  RETURN pg_snapshot_xmax(v_snapshot);
END;
$fn$;
