// `verdict catalogs import --tenant T` imports the catalog as T's: T's evaluations made from its
// sets follow it, and it is T's to export, no other tenant's (VERDICT_TENANT's default, demo, included).
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { createEvaluation, lastCatalogImport } from "@verdict/domain";
import { claimHome, openEventStore, platformMode, Resources } from "./platform.js";
import { cli } from "./testing.js";

const dir = await mkdtemp(join(tmpdir(), "verdict-catalog-tenant-"));
const env = { VERDICT_HOME: join(dir, "home") };
afterAll(() => rm(dir, { recursive: true, force: true }));

const catalog = (prompt: string) => `catalog: desk\nproducts:\n  - key: triage\n    sets:\n      - key: smoke\n        scenarios:\n          - key: refund\n            prompt: ${prompt}\n`;

/** acme's evaluation of desk/triage/smoke, as an older Verdict made it (found in the log and adopted by the import). */
async function acmeSetEvaluation(): Promise<string> {
  const resources = new Resources();
  try {
    const mode = platformMode(env);
    await claimHome(mode, resources);
    const store = await openEventStore(mode, resources);
    const { digest } = (await lastCatalogImport(store, "acme", "desk"))!;
    const evaluationId = randomUUID();
    await createEvaluation(store, {
      evaluation_id: evaluationId, tenant: "acme", agent: "SupportAgent", name: "desk/triage/smoke",
      scenarios: [{ key: "refund", prompt: "Refund order 1042." }], catalog: { catalog_key: "desk", product_key: "triage", set_key: "smoke", digest },
    }, { clock: { now: () => new Date() }, ids: { next: () => randomUUID() }, context: { tenant: "acme", actor: "test" } });
    return evaluationId;
  } finally {
    await resources.close();
  }
}

it("imports for the tenant given: its evaluations of the catalog's sets are synced, and only it can export the catalog", async () => {
  const [first, second] = [join(dir, "desk.yaml"), join(dir, "desk-2.yaml")];
  await writeFile(first, catalog("Refund order 1042."));
  await writeFile(second, catalog("Refund order 1042 today."));
  // The first import creates the home, and says so (a mistyped VERDICT_HOME is seen); the next ones do not.
  const created = `verdict catalogs import: VERDICT_HOME ${env.VERDICT_HOME} did not exist: created a new, empty home`;
  expect(await cli(["catalogs", "import", first, "--tenant", "acme"], env)).toMatchObject({ code: 0, stderr: `${created}imported catalog desk for tenant acme` });
  const evaluationId = await acmeSetEvaluation();
  const reimport = await cli(["catalogs", "import", second, "--tenant", "acme"], env);
  expect(reimport).toMatchObject({ code: 0 });
  expect(reimport.stderr).not.toContain("did not exist");
  expect(reimport.stderr).toContain(`synced 1 evaluation(s) to the catalog's sets: ${evaluationId}`);
  expect((await cli(["catalogs", "export", "desk", "--tenant", "acme"], env)).stdout).toContain("Refund order 1042 today.");
  expect(await cli(["catalogs", "export", "desk"], env)).toMatchObject({ code: 2, stderr: expect.stringContaining('no catalog "desk" for tenant demo') });
}, 60_000);
