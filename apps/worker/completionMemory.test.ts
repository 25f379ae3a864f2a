// Finishing a run holds memory by its pairs, not by its answers: a completion of 150 pairs whose
// answers and tool output weigh 1.5 MB each (225 MB in all) runs in a process whose heap may not
// pass 96 MB (testingCompletionHeap.ts). A completion that reads every replay whole dies there.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";

const HEAP_MB = 96;

function completeInSmallHeap(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, "--import", "tsx", "apps/worker/testingCompletionHeap.ts"], {
    cwd: new URL("../..", import.meta.url).pathname,
    env: { ...process.env, HEAP_SCENARIOS: "50", HEAP_ANSWER_BYTES: "1000000" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stdout, stderr })));
}

describe("completion memory", () => {
  it(`completes a run of 150 pairs with 1.5 MB of answer and tool output each in a ${HEAP_MB} MB heap`, async () => {
    const { code, stdout, stderr } = await completeInSmallHeap();
    expect(stderr.slice(-2_000), "the completion ran out of heap or failed").not.toMatch(/heap out of memory|Error/);
    expect(code).toBe(0);
    const line = JSON.parse(stdout.trim().split("\n").pop()!) as { outcome: string; pairs: number; peakHeapMB: number };
    expect(line).toMatchObject({ outcome: "completed", pairs: 150 });
    expect(line.peakHeapMB).toBeLessThan(HEAP_MB);
  }, 60_000);
});
