// `verdict start` on a port the user chose (--port or PORT) that another process holds: refused
// before any work, naming it (it was silently replaced by a free one, advising to set PORT).
import { createServer, type Server } from "node:net";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "./testing.js";

let taken: Server;
let port = 0;
let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "verdict-port-"));
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  port = (taken.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => taken.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe("verdict start on a taken port the user chose", () => {
  it("refuses --port or PORT with exit 2, naming it, before opening the home", async () => {
    const home = join(dir, "home");
    const advice = `the port is taken (another process listens on 127.0.0.1:${port}); choose another, or 0 for any free one`;
    expect(await cli(["start", "--exit", "--port", String(port)], { VERDICT_HOME: home })).toEqual({ code: 2, stdout: "", stderr: `verdict start: --port ${port}: ${advice}` });
    expect(await cli(["start", "--exit"], { VERDICT_HOME: home, PORT: String(port) })).toEqual({ code: 2, stdout: "", stderr: `verdict start: PORT=${port}: ${advice}` });
    expect(existsSync(home)).toBe(false);
  });
});

describe("verdict start with a port that is not decimal digits", () => {
  it("refuses --port 0x1f90 (Number() read it as 8080), or 1e3, and PORT=0x1f90, with exit 2, before opening the home", async () => {
    const home = join(dir, "hex-home");
    for (const bad of ["0x1f90", "1e3", " 80 x", "65536"]) {
      expect(await cli(["start", "--exit", "--port", bad], { VERDICT_HOME: home })).toEqual({ code: 2, stdout: "", stderr: `verdict start: --port must be a port number 0-65535 (got ${JSON.stringify(bad)})` });
    }
    expect(await cli(["start", "--exit"], { VERDICT_HOME: home, PORT: "0x1f90" })).toEqual({ code: 2, stdout: "", stderr: 'verdict start: PORT must be a port number 0-65535 (got "0x1f90")' });
    expect(existsSync(home)).toBe(false);
  });
});

describe("verdict start with PORT set but empty", () => {
  it("refuses it with exit 2, as `npm run api` does (apiPortFromEnv), where it took it for unset and served on 4000", async () => {
    const home = join(dir, "empty-home");
    for (const empty of ["", " "]) {
      expect(await cli(["start", "--exit"], { VERDICT_HOME: home, PORT: empty })).toEqual({ code: 2, stdout: "", stderr: `verdict start: PORT must be a port number 0-65535 (got ${JSON.stringify(empty)})` });
    }
    expect(existsSync(home)).toBe(false);
  });
});

describe("verdict start with an API limit that is no number", () => {
  it("refuses VERDICT_API_MAX_KEY_OPERATIONS with exit 2, naming it, before opening the home", async () => {
    const home = join(dir, "limits-home");
    expect(await cli(["start", "--exit", "--port", "0"], { VERDICT_HOME: home, VERDICT_API_MAX_KEY_OPERATIONS: "lots" })).toEqual({
      code: 2, stdout: "", stderr: 'verdict start: VERDICT_API_MAX_KEY_OPERATIONS must be a whole number >= 1 (got "lots")',
    });
    expect(existsSync(home)).toBe(false);
  });
});

describe("verdict start with a VERDICT_API_CORS_ORIGINS entry that is no origin", () => {
  it("refuses it with exit 2, naming it, the rule and the entry, before opening the home", async () => {
    const home = join(dir, "cors-home");
    expect(await cli(["start", "--exit", "--port", "0"], { VERDICT_HOME: home, VERDICT_API_CORS_ORIGINS: "https://dash.example.com/app" })).toEqual({
      code: 2, stdout: "", stderr: expect.stringMatching(/^verdict start: VERDICT_API_CORS_ORIGINS must be origins as a browser sends them, .* \(got "https:\/\/dash\.example\.com\/app": not an origin as a browser sends it: https:\/\/dash\.example\.com\)$/),
    });
    expect(existsSync(home)).toBe(false);
  });
});

describe("verdict start with a VERDICT_TOPIC_PREFIX Kafka would refuse", () => {
  it("refuses it with exit 2, naming it and the rule as the worker does, before opening the home", async () => {
    // On Kafka it failed after the databases were open, as `verdict start failed: Topic creation errors`.
    const home = join(dir, "prefix-home");
    expect(await cli(["start", "--exit", "--port", "0"], { VERDICT_HOME: home, VERDICT_TOPIC_PREFIX: "team a/" })).toEqual({
      code: 2, stdout: "", stderr: 'verdict start: VERDICT_TOPIC_PREFIX must be at most 200 letters, digits, ".", "_" or "-" (Kafka topic names) (got "team a/")',
    });
    expect(existsSync(home)).toBe(false);
  });
});
