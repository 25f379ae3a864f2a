-- The reading bound, narrowed to this database. pg_snapshot_xmin is cluster-wide: any open
-- transaction with an xid in ANY database (another service's, another test's) would hold back
-- every reader of this log. Only transactions of this database can write `messages`, so the
-- bound is the oldest in-progress xid of the reader's snapshot that is not verified to belong to
-- another database, or the snapshot's xmax when there is none. An in-progress xid whose backend
-- cannot be found (it finished after the snapshot was taken) still counts: its rows are not in
-- the reader's snapshot, so the reader must not move past it. STABLE, so it sees the calling
-- statement's snapshot; plpgsql, so its plan is cached per session; and with no transaction in
-- progress at all it returns at once without reading pg_locks.
CREATE FUNCTION verdict_visible_bound() RETURNS xid8
LANGUAGE plpgsql STABLE AS $fn$
DECLARE
  v_snapshot pg_snapshot := pg_current_snapshot();
  v_bound xid8;
BEGIN
  IF pg_snapshot_xmin(v_snapshot) = pg_snapshot_xmax(v_snapshot) THEN
    RETURN pg_snapshot_xmax(v_snapshot);
  END IF;
  SELECT min(x) INTO v_bound FROM pg_snapshot_xip(v_snapshot) AS x
   WHERE NOT EXISTS (
     SELECT 1 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'transactionid' AND l.mode = 'ExclusiveLock' AND l.granted
        AND l.transactionid = xid(x) AND a.datname IS DISTINCT FROM current_database());
  RETURN coalesce(v_bound, pg_snapshot_xmax(v_snapshot));
END;
$fn$;
