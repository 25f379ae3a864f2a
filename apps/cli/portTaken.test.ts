// `verdict start`'s API finding its port taken at listen, after the probe said it was free (two
// starts launched together: one crashed with `listen EADDRINUSE 127.0.0.1:4000`). Here another
// server takes the port between the probe and the listen, as the other start did.
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CliError } from "./errors.js";
import { servingWherePortFree } from "./portTaken.js";

let taken: Server;
let port = 0;
const served: HttpServer[] = [];

beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  port = (taken.address() as { port: number }).port;
});
afterAll(async () => {
  for (const server of [taken, ...served]) await new Promise((resolve) => server.close(resolve));
});

/** An API stand-in: listens on `options.port` as createApiServer does, recording each port asked for. */
function serving(asked: number[]) {
  return (options: { port?: number }) => new Promise<HttpServer>((resolve, reject) => {
    asked.push(options.port ?? 4000);
    const server = createHttpServer();
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () => resolve(served[served.push(server) - 1]!));
  });
}

describe("verdict start's API on a port taken since the probe", () => {
  it("listens on a free port instead when the port is the default, saying so as the probe does", async () => {
    const asked: number[] = [];
    const lines: string[] = [];
    const server = await servingWherePortFree(null, { out: (line) => void lines.push(line) }, serving(asked), { port });
    expect(asked).toEqual([port, 0]);
    expect((server.address() as { port: number }).port).not.toBe(port);
    expect(lines).toEqual([`port ${port} is taken; picking a free one (--port or PORT chooses one)`]);
  });

  it("refuses a port the user chose (exit 2, as at the probe), never replacing it", async () => {
    for (const by of ["--port", "PORT"] as const) {
      const asked: number[] = [];
      const refusal = servingWherePortFree(by, { out: () => undefined }, serving(asked), { port });
      await expect(refusal).rejects.toBeInstanceOf(CliError);
      await expect(refusal).rejects.toMatchObject({ exitCode: 2 });
      await expect(refusal).rejects.toThrow(`verdict start: ${by === "PORT" ? `PORT=${port}` : `--port ${port}`}: the port is taken`);
      expect(asked).toEqual([port]);
    }
  });

  it("passes on any other failure as it was", async () => {
    const failure = Object.assign(new Error("listen EACCES"), { code: "EACCES" });
    await expect(servingWherePortFree(null, { out: () => undefined }, () => Promise.reject(failure), { port })).rejects.toBe(failure);
  });
});
