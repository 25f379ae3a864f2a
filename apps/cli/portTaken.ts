// What `verdict start` does when its port is taken, at its probe or at the API's listen. The API
// listens only once its schema and Apollo are built, seconds after the probe said the port was
// free, and two starts on different homes launched together crashed there (`listen EADDRINUSE
// 127.0.0.1:4000`, 2 of 9 trials). The default is only a default: a start falls back to a free
// port, whenever it finds the default taken. A port the user chose (--port, PORT) is refused
// (exit 2), whenever it is found taken: the URL they set up (a proxy, a bookmark) would point
// at something else.
import { CliError } from "./errors.js";
import type { Io } from "./io.js";

/** What set the port: --port, PORT, or nothing (null: the default). */
export type PortSetBy = "--port" | "PORT" | null;

/** The refusal of a port the user chose, taken by another process. */
export function takenChoiceRefusal(by: "--port" | "PORT", port: number): CliError {
  const named = by === "--port" ? `--port ${port}` : `PORT=${port}`;
  return new CliError(`verdict start: ${named}: the port is taken (another process listens on 127.0.0.1:${port}); choose another, or 0 for any free one`);
}

/** The line a start says when the default port is taken. */
export function defaultTakenLine(port: number): string {
  return `port ${port} is taken; picking a free one (--port or PORT chooses one)`;
}

/** Whether `error` is a listen's "another process listens on that port". */
function portTaken(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === "EADDRINUSE";
}

/**
 * `serve(options)`; when its listen finds the port taken since the probe: on any free port (0),
 * said, if the port is the default, or refused as at the probe if the user chose it.
 */
export async function servingWherePortFree<O extends { port?: number }, S>(
  by: PortSetBy,
  io: Pick<Io, "out">,
  serve: (options: O) => Promise<S>,
  options: O,
): Promise<S> {
  try {
    return await serve(options);
  } catch (error) {
    if (!options.port || !portTaken(error)) throw error;
    if (by !== null) throw takenChoiceRefusal(by, options.port);
    io.out(defaultTakenLine(options.port));
    return serve({ ...options, port: 0 });
  }
}
