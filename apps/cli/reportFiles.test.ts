// `verdict start` saves a run's reports as `<evaluation>-run-<number>.{html,md}`; a run number is
// not unique to a reports directory (an older Verdict split one evaluation in two and numbered a
// second run 1), and the file of another run there must never be replaced.
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunRef } from "./exampleRun.js";
import type { GqlClient } from "./gqlClient.js";
import { RunReports } from "./runReports.js";

let dir: string;
const evaluation = { id: "e1", name: "support/support/smoke" };

/** What one start writes for the run (each start keeps its own RunReports). */
const saveReports = (api: GqlClient, run: RunRef) => new RunReports(api, dir).write(evaluation, run);

/** The API's report export of `text`, named as its download. */
function client(text: string): GqlClient {
  return {
    get: async (path: string) => {
      const ext = path.includes(".md?") ? "md" : "html";
      return new Response(`${ext}: ${text}`, { headers: { "content-disposition": `attachment; filename="support-support-smoke-run-1.${ext}"` } });
    },
  } as unknown as GqlClient;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "verdict-reports-"));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("RunReports.write", () => {
  it("leaves another run's report of the same number alone, saving this run's under its short id", async () => {
    await writeFile(join(dir, "support-support-smoke-run-1.html"), "html: the old run 1");
    await writeFile(join(dir, "support-support-smoke-run-1.md"), "md: the old run 1");
    const saved = await saveReports(client("the new run 1"), { id: "0d1b7c99-aaaa-bbbb", number: 1, status: "COMPLETED" });
    expect(saved).toEqual({ htmlPath: join(dir, "support-support-smoke-run-1-0d1b7c99.html"), markdownPath: join(dir, "support-support-smoke-run-1-0d1b7c99.md") });
    expect(await readFile(join(dir, "support-support-smoke-run-1.html"), "utf8")).toBe("html: the old run 1");
    expect(await readFile(join(dir, "support-support-smoke-run-1.md"), "utf8")).toBe("md: the old run 1");
    expect(await readFile(saved.markdownPath, "utf8")).toBe("md: the new run 1");
  });

  it("keeps the plain name when it is free or holds this run's own report (saved again)", async () => {
    const run = { id: "50ece2bc-cccc", number: 1, status: "COMPLETED" };
    const first = await saveReports(client("run 1"), run);
    expect(first.htmlPath).toBe(join(dir, "support-support-smoke-run-1.html"));
    expect(await saveReports(client("run 1"), run)).toEqual(first);
    expect((await readdir(dir)).sort()).toEqual(["support-support-smoke-run-1.html", "support-support-smoke-run-1.md"]);
  });

  it("names the whole run id when even the short one is another run's", async () => {
    await writeFile(join(dir, "support-support-smoke-run-1.html"), "html: another");
    await writeFile(join(dir, "support-support-smoke-run-1-0d1b7c99.html"), "html: yet another");
    const saved = await saveReports(client("mine"), { id: "0d1b7c99-dddd", number: 1, status: "COMPLETED" });
    expect(saved.htmlPath).toBe(join(dir, "support-support-smoke-run-1-0d1b7c99-dddd.html"));
    expect(await readFile(join(dir, "support-support-smoke-run-1-0d1b7c99.html"), "utf8")).toBe("html: yet another");
  });
});
