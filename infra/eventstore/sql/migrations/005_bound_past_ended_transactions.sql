-- The reading bound no longer waits behind a transaction that ended without writing `messages`.
-- Migration 002 counted every in-progress xid of the reader's snapshot whose backend it could
-- not find, because such a transaction ended after the snapshot was taken and, had it been one
-- of ours, its rows would be missing from the read. But most are another database's: with a busy
-- neighbour on the cluster, 6% of reads right after an append came back without that append.
--
-- verdict_ended_without_messages tells, for one xid, whether it is certain that the transaction
-- has ended and left no row in `messages`: aborted, or committed with no row under a fresh
-- snapshot. It is VOLATILE so its query takes a new snapshot (READ COMMITTED), and that snapshot
-- must itself count the xid as finished: older PostgreSQL minors report 'committed' as soon as
-- the commit log says so, while the transaction is still in the running set (a synchronous
-- replica's acknowledgement can keep it there), and its rows are then invisible to any snapshot.
-- Anything else (still running, its xid not yet locked, status unknown, or a REPEATABLE READ
-- caller whose snapshot would not be fresh) keeps holding readers back.
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
  RETURN pg_visible_in_snapshot(p_xid, pg_current_snapshot())
     AND NOT EXISTS (SELECT 1 FROM messages WHERE transaction_id = p_xid);
END;
$fn$;

-- The bound passes an xid of the snapshot that is running in another database, or that has ended
-- without leaving an event. Which database runs an xid is read from pg_stat_activity's
-- backend_xid, set together with the xid itself (pg_locks, which 002 read, lags it: the xid lock
-- is taken just after, and a neighbour caught in between held readers back). A transaction that
-- ends before that look is no longer listed there and is asked about instead; one that ends
-- after it was running elsewhere when looked at. A prepared transaction has no backend:
-- pg_prepared_xacts names its database. On a hot standby the snapshot lists no running xids at
-- all (they are kept as subtransactions there), so the bound is the snapshot's xmin, 001's rule.
CREATE OR REPLACE FUNCTION verdict_visible_bound() RETURNS xid8
LANGUAGE plpgsql STABLE AS $fn$
DECLARE
  v_snapshot pg_snapshot := pg_current_snapshot();
  v_elsewhere xid[];
  v_xid xid8;
BEGIN
  IF pg_snapshot_xmin(v_snapshot) = pg_snapshot_xmax(v_snapshot) THEN
    RETURN pg_snapshot_xmax(v_snapshot);
  END IF;
  IF pg_is_in_recovery() THEN
    RETURN pg_snapshot_xmin(v_snapshot);
  END IF;
  v_elsewhere := ARRAY(
    SELECT backend_xid FROM pg_stat_activity
     WHERE backend_xid IS NOT NULL AND datname IS DISTINCT FROM current_database()
    UNION ALL
    SELECT transaction FROM pg_prepared_xacts WHERE database <> current_database());
  FOR v_xid IN SELECT x FROM pg_snapshot_xip(v_snapshot) AS x ORDER BY x LOOP
    CONTINUE WHEN xid(v_xid) = ANY (v_elsewhere) OR verdict_ended_without_messages(v_xid);
    RETURN v_xid;
  END LOOP;
  RETURN pg_snapshot_xmax(v_snapshot);
END;
$fn$;
