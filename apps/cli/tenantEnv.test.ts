// VERDICT_TENANT set but empty (`VERDICT_TENANT=` in a CI file, a secret that was never set)
// silently meant demo, so a command acted on demo's catalogs; `--tenant ''` was refused.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { tenantOf } from "./tenant.js";
import { cli } from "./testing.js";

const EMPTY = "VERDICT_TENANT is set but empty: name a tenant, or unset it for the default tenant, demo";

it("refuses an empty VERDICT_TENANT by name, and defaults only when it is unset", () => {
  for (const value of ["", "  "]) expect(() => tenantOf(undefined, { VERDICT_TENANT: value })).toThrow(EMPTY);
  expect(tenantOf(undefined, {})).toBe("demo");
  expect(tenantOf(undefined, { VERDICT_TENANT: " acme " })).toBe("acme");
  // --tenant decides alone: the variable is not read then.
  expect(tenantOf("acme", { VERDICT_TENANT: "" })).toBe("acme");
});

it("is a usage error (exit 2) for a command", async () => {
  const home = await mkdtemp(join(tmpdir(), "verdict-tenant-"));
  try {
    expect(await cli(["catalogs", "export", "support"], { VERDICT_HOME: home, VERDICT_TENANT: "" })).toEqual({ code: 2, stdout: "", stderr: EMPTY });
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});
