import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readScriptFile } from "./readScriptFile.js";

const read = (path: string) => readScriptFile(path, "agent script", (message) => new Error(message));

describe("readScriptFile reads as catalog files are read", () => {
  const dir = mkdtempSync(join(tmpdir(), "verdict-script-file-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("stops reading a device just past the limit (stat says 0 bytes: /dev/zero was read to 655 MB, then 'Invalid string length')", async () => {
    await expect(read("/dev/zero")).rejects.toThrow("agent script: /dev/zero is over 2,097,152 bytes (reading stopped there); at most 2,097,152 are allowed");
  });

  it("refuses a named pipe unopened (opening one with no writer waited forever)", async () => {
    const fifo = join(dir, "pipe.yaml");
    execFileSync("mkfifo", [fifo]);
    await expect(read(fifo)).rejects.toThrow(`agent script: ${fifo} is not a regular file`);
  }, 10_000);

  it("refuses text that is not UTF-8 with its line (it was read with U+FFFD in place), and reads UTF-8", async () => {
    const latin1 = join(dir, "latin1.yaml");
    writeFileSync(latin1, Buffer.concat([Buffer.from("agent: a\ndefault: { answer: caf"), Buffer.from([0xe9]), Buffer.from(" }\n")]));
    await expect(read(latin1)).rejects.toThrow(`agent script: ${latin1}: line 2: not UTF-8 text: the byte at offset 31 is not valid UTF-8`);
    const ok = join(dir, "ok.yaml");
    writeFileSync(ok, "agent: café\n");
    await expect(read(ok)).resolves.toBe("agent: café\n");
  });
});
