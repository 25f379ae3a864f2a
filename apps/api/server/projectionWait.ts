// Read-your-writes for an API in its own process: after a mutation, poll the projector's
// checkpoint in the read database until it has passed the appended position. A projector that
// lags beyond the timeout makes the wait throw, and the mutation answers UNAVAILABLE naming what
// it recorded (afterWrite), as the embedded API does and apps/api/README.md says: it gave up
// quietly here, and the mutation answered its read-back as null with no error, so a client could
// not tell a write it should not send again.
import { createPgPool } from "@verdict/infra/pg";
import type { LogPosition } from "@verdict/domain";
import { DEFAULT_PROJECTOR_NAME } from "@verdict/projector";

interface ProjectionWaitOptions {
  url: string;
  projector?: string;
  intervalMs?: number;
  timeoutMs?: number;
  poolSize?: number;
}

interface ProjectionWait {
  wait(position: LogPosition): Promise<void>;
  close(): Promise<void>;
}

function reached(checkpoint: { commit: string; prepare: string } | undefined, position: LogPosition): boolean {
  if (!checkpoint) return false;
  const commit = BigInt(checkpoint.commit);
  return commit > position.commit || (commit === position.commit && BigInt(checkpoint.prepare) >= position.prepare);
}

export function pollProjection(options: ProjectionWaitOptions): ProjectionWait {
  const pool = createPgPool({ connectionString: options.url, max: options.poolSize ?? 2 });
  const interval = options.intervalMs ?? 20;
  const timeout = options.timeoutMs ?? 5000;
  return {
    async wait(position) {
      const deadline = Date.now() + timeout;
      for (;;) {
        const { rows } = await pool.query<{ commit: string; prepare: string }>(
          "SELECT commit_position::text AS commit, prepare_position::text AS prepare FROM projector_checkpoints WHERE name = $1",
          [options.projector ?? DEFAULT_PROJECTOR_NAME],
        );
        if (reached(rows[0], position)) return;
        if (Date.now() >= deadline) throw new Error(`the projector has not reached the write's position within ${timeout} ms`);
        await new Promise((resolve) => setTimeout(resolve, interval));
      }
    },
    close: () => pool.end(),
  };
}
