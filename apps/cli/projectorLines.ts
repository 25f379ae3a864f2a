// What `verdict start`'s own projector says: progress not published, events refused, read
// models of another projection version, and (as the standalone projector says it) each failure
// its loop tries again after. Before, start's projector had no retry line: during a read
// database outage or hang on PostgreSQL it was silent.
import { projectorRetryLines, rejectionLine, staleProjectionLine, type ProjectorOptions } from "@verdict/projector";
import type { Io } from "./io.js";

export function startProjectorLines(io: Io): Pick<ProjectorOptions, "onPublishError" | "onReject" | "onStaleProjection" | "onRetry"> {
  return {
    onPublishError: (e) => io.err(`progress not published: ${(e as Error).message}`),
    onReject: (r) => io.err(rejectionLine(r)),
    onStaleProjection: (state) => io.out(`verdict: ${staleProjectionLine(state)}`),
    onRetry: projectorRetryLines((line) => io.err(line)),
  };
}
