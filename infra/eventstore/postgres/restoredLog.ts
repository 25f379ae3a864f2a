// A log restored from another PostgreSQL server cannot be read here. The store orders its log by
// the id of the transaction that wrote each event (a column PostgreSQL fills, pg_current_xact_id)
// and reads only below the oldest transaction still running, so a slow transaction never commits
// behind a reader's checkpoint. Those ids are the old server's: a pg_dump restored on a fresh
// server holds ids past any this server has given out, so every event stays invisible (the log
// reads as empty) and new events sort before them, until its counter passes them and the old
// events reappear behind the new. On the server that wrote them no event's id can reach the next
// one to be given out, so that is the sign; the store refuses to open, before anything is read or
// written, and says how to move a log between servers.

/** The restored log's newest transaction id and this server's next one, as PostgreSQL prints xid8. */
interface TransactionIds {
  newest: string | null;
  next: string;
}

const XID_SEGMENT = 1_048_576n; // transactions a pg_xact segment holds: pg_resetwal's safe step
const EPOCH = 1n << 32n;

export class LogFromAnotherServerError extends Error {
  /** An input at odds with what is stored: the CLI's exit 3 (apps/cli/errors.ts). */
  readonly code = "conflict";

  constructor(ids: { newest: bigint; next: bigint }) {
    super(
      `the event log (DATABASE_URL) was restored from another PostgreSQL server: its newest event was written by transaction ${ids.newest}, ` +
        `past this server's next transaction (${ids.next}). Verdict orders its log by the transaction ids PostgreSQL gave its events, so here they would ` +
        "stay invisible and new events would sort before them; nothing was read or written. Move a log with a physical copy of the cluster " +
        `(pg_basebackup), or restore the dump into a fresh cluster whose transaction counter was first set past it: \`${resetwalCommand(ids.newest)}\` ` +
        "on the stopped, empty cluster, then pg_restore (README \"Backups, and moving the event log to another server\")",
    );
    this.name = "LogFromAnotherServerError";
  }
}

/**
 * pg_resetwal's options for a fresh cluster that reads the log: the next epoch (transaction ids
 * are 32 bits counted in epochs of 2^32), at its first pg_xact segment boundary. Not the next
 * boundary within the log's epoch: a fresh cluster's own catalog rows carry ids near 700, and a
 * counter set 2^31 past them (a busy server's ids are often that high) reads them as in the
 * future or stops at the wraparound limit ("database with OID 1 must be vacuumed").
 */
export function resetwalCommand(newest: bigint): string {
  return `pg_resetwal -e ${newest / EPOCH + 1n} -x ${XID_SEGMENT} DATADIR`;
}

type Query = <T>(sql: string) => Promise<T[]>;

/** Throws LogFromAnotherServerError when the log's events carry transaction ids this server has not given out. */
export async function refuseLogFromAnotherServer(query: Query): Promise<void> {
  // The newest through the log's index (no aggregate over the table); the snapshot's xmax is the next id to be given out.
  const [ids] = await query<TransactionIds>(
    "SELECT (SELECT transaction_id::text FROM messages ORDER BY transaction_id DESC LIMIT 1) AS newest, pg_snapshot_xmax(pg_current_snapshot())::text AS next",
  ).catch((error: unknown) => {
    // A store opened without migrating, on a database not migrated yet: nothing restored to refuse.
    if ((error as { code?: unknown }).code === "42P01") return [];
    throw error;
  });
  if (!ids?.newest) return;
  const newest = BigInt(ids.newest);
  const next = BigInt(ids.next);
  if (newest >= next) throw new LogFromAnotherServerError({ newest, next });
}
