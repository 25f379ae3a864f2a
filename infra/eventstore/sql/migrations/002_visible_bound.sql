-- The reading bound, narrowed to this database. pg_snapshot_xmin is cluster-wide: any open
-- transaction with an xid in ANY database (another service's, another test's) would hold back
-- every reader of this log. Only transactions of this database can write `messages`, so the
-- bound is the oldest in-progress xid of the reader's snapshot that is not verified to belong to
-- another database, or the snapshot's xmax when there is none. An in-progress xid whose backend
-- cannot be found (it finished after the snapshot was taken) still counts: its rows are not in
-- the reader's snapshot, so the reader must not move past it. STABLE, so it sees the calling
-- statement's snapshot.
CREATE FUNCTION verdict_visible_bound() RETURNS xid8
LANGUAGE sql STABLE AS $fn$
  SELECT coalesce(
    (SELECT min(x) FROM pg_snapshot_xip(pg_current_snapshot()) AS x
      WHERE NOT EXISTS (
        SELECT 1 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
         WHERE l.locktype = 'transactionid' AND l.mode = 'ExclusiveLock' AND l.granted
           AND l.transactionid = xid(x) AND a.datname IS DISTINCT FROM current_database())),
    pg_snapshot_xmax(pg_current_snapshot()))
$fn$;
