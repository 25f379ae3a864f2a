// Bad input to `verdict run`, `report` and `catalogs`: a usage error (exit 2) that names
// the flag or path and what is wrong, found before any work is done, and shows no secret.
import { existsSync } from "node:fs";
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, example, exampleRun } from "./testing.js";


describe("verdict with bad input: a catalog path", () => {
  it("refuses a catalog path that is a directory or over the size limit before reading it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "verdict-bad-"));
    try {
      const huge = join(dir, "huge.yaml");
      const handle = await open(huge, "w");
      await handle.truncate(600 * 1024 * 1024); // sparse: nothing is written
      await handle.close();
      const env = { VERDICT_HOME: join(dir, "home") };
      expect(await cli(["catalogs", "import", dir], env)).toMatchObject({ code: 2, stderr: `${dir} is a directory, not a catalog file` });
      expect(await cli(["catalogs", "import", huge], env)).toMatchObject({ code: 2, stderr: `${huge}: document is 629,145,600 bytes; at most 2,097,152 (2 MB) are allowed` });
      const local = await cli(exampleRun().map((arg) => (arg === example("catalog.yaml") ? dir : arg)));
      expect(local).toMatchObject({ code: 2, stderr: `${dir} is a directory, not a catalog file` });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("stops reading a device or a pipe past the size limit (/dev/zero was read until memory ran out)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "verdict-bad-"));
    try {
      const env = { VERDICT_HOME: join(dir, "home") };
      const limit = "document is over 2,097,152 bytes (reading stopped there); at most 2,097,152 (2 MB) are allowed";
      for (const argv of [["catalogs", "import", "/dev/zero"], ["catalogs", "import", "--preview", "/dev/zero"], exampleRun().map((arg) => (arg === example("catalog.yaml") ? "/dev/zero" : arg))]) {
        expect(await cli(argv, env), argv.join(" ")).toMatchObject({ code: 2, stderr: `/dev/zero: ${limit}` });
      }
      expect(existsSync(env.VERDICT_HOME)).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
