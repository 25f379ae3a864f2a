// A setting the server does not know (42704) or does not let this role set (42501) is skipped
// and told; the others are still sent; any other failure (a lost connection) is an error.
import type pg from "pg";
import { expect, it } from "vitest";
import { applyServerSettings } from "./index.js";

function fakeClient(fails: Record<string, { code?: string; message: string }>): { client: pg.ClientBase; sent: string[] } {
  const sent: string[] = [];
  const client = {
    query: (text: string) => {
      sent.push(text);
      const failure = fails[text];
      return failure ? Promise.reject(Object.assign(new Error(failure.message), failure.code ? { code: failure.code } : {})) : Promise.resolve({ rows: [] });
    },
  } as unknown as pg.ClientBase;
  return { client, sent };
}

it("sends each statement on its own and skips the ones refused as unknown or not permitted, telling why", async () => {
  const { client, sent } = fakeClient({
    "SET a = 1": { code: "42704", message: 'unrecognized configuration parameter "a"' },
    "SET b = 1": { code: "42501", message: 'permission denied to set parameter "b"' },
  });
  const told: string[] = [];
  const refused = await applyServerSettings(client, ["SET a = 1", "SET b = 1", "SET c = 1"], (message) => void told.push(message));
  expect(sent).toEqual(["SET a = 1", "SET b = 1", "SET c = 1"]);
  expect(refused).toEqual(["SET a = 1", "SET b = 1"]);
  expect(told).toEqual([
    'PostgreSQL refused "SET a = 1" (42704: unrecognized configuration parameter "a"); the session goes on without it',
    'PostgreSQL refused "SET b = 1" (42501: permission denied to set parameter "b"); the session goes on without it',
  ]);
});

it("any other failure rejects and stops there", async () => {
  const { client, sent } = fakeClient({ "SET a = 1": { message: "Connection terminated unexpectedly" } });
  await expect(applyServerSettings(client, ["SET a = 1", "SET c = 1"], () => undefined)).rejects.toThrow("Connection terminated unexpectedly");
  expect(sent).toEqual(["SET a = 1"]);
});
