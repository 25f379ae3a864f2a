// `verdict run --release DIGEST [--release-revision REV] [--release-label LABEL] --metadata KEY=VALUE`:
// the release and the host's metadata reach the report as the library's Report renders them
// (README.md Status named their absence: report.json was edited before `evals import`), under
// the rules an explicit release and a report's metadata follow elsewhere; a bad value is exit 2
// naming the flag and the rule, with nothing written.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkImportedReport } from "@verdict/domain";
import { cli, exampleRun } from "./testing.js";

const dir = await mkdtemp(join(tmpdir(), "verdict-run-release-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

const tagged = ["--release", "3f2a9c1b7e4d", "--release-revision", "git:9b1e2f0", "--release-label", "v3", "--metadata", "build=ci-1234", "--metadata", "branch=main", "--metadata", "note=a=b c"];

describe("verdict run --release, --metadata", () => {
  it("puts them in the report: the Markdown's Release and Metadata lines, report.json's release and metadata, the page's chips", async () => {
    const md = await cli(exampleRun(...tagged));
    expect(md.code).toBe(0);
    expect(md.stdout).toContain("\n\nRelease: v3\n\n");
    // After the keys the run writes itself, in the order given; a value keeps every `=` after the first.
    expect(md.stdout).toMatch(/\nMetadata: catalog support · product support · set smoke · digest [0-9a-f]{64} · build ci-1234 · branch main · note a=b c\n/);

    const json = await cli(exampleRun(...tagged, "--format", "json"));
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as Record<string, unknown> & { metadata: Record<string, string> };
    expect(report.release).toEqual({ digest: "3f2a9c1b7e4d", revision: "git:9b1e2f0", label: "v3" });
    expect(Object.keys(report.metadata)).toEqual(["catalog", "product", "set", "digest", "build", "branch", "note"]);
    expect(report.metadata).toMatchObject({ build: "ci-1234", branch: "main", note: "a=b c" });
    // What `evals import --run-id` checks a bare report by: it imports as written, no edit needed.
    expect(() => checkImportedReport(report)).not.toThrow();

    const html = await cli(exampleRun(...tagged, "--format", "html"));
    expect(html.code).toBe(0);
    expect(html.stdout).toContain('<span class="chip release">Release: v3</span>');
    expect(html.stdout).toContain('<span class="chip">build ci-1234</span><span class="chip">branch main</span><span class="chip">note a=b c</span>');
  });

  it("names a release without a label by its digest and revision, and leaves both out when not given", async () => {
    const named = await cli(exampleRun("--release", "3f2a9c1b7e4d", "--release-revision", "git:9b1e2f0"));
    expect(named.stdout).toContain("\n\nRelease: 3f2a9c1b7e4d · git:9b1e2f0\n\n");
    const json = await cli(exampleRun("--release", "3f2a9c1b7e4d", "--format", "json"));
    expect(JSON.parse(json.stdout).release).toEqual({ digest: "3f2a9c1b7e4d" });
    const plain = await cli(exampleRun("--format", "json"));
    expect(JSON.parse(plain.stdout)).not.toHaveProperty("release");
    expect(Object.keys(JSON.parse(plain.stdout).metadata)).toEqual(["catalog", "product", "set", "digest"]);
  });

  it("refuses a bad release or metadata flag with exit 2 naming the flag and the rule, writing nothing", async () => {
    const out = join(dir, "report.md");
    const long = "x".repeat(201);
    const cases: [string[], string][] = [
      // startRun's rule for an explicit release (eventSchemas.releaseInput): each part at most 200 characters.
      [["--release", long], "verdict run: --release: must be at most 200 characters (it has 201)"],
      [["--release", "abc", "--release-revision", long], "verdict run: --release-revision: must be at most 200 characters (it has 201)"],
      [["--release", "abc", "--release-label", long], "verdict run: --release-label: must be at most 200 characters (it has 201)"],
      // A release is named by its digest, as startRun's is.
      [["--release-label", "v3"], "verdict run: --release-label needs --release DIGEST (a release is named by its digest, as startRun's is)"],
      [["--release-revision", "git:1"], "verdict run: --release-revision needs --release DIGEST (a release is named by its digest, as startRun's is)"],
      [["--release", " "], "verdict run: --release must not be empty"],
      [["--release", "a", "--release", "b"], "verdict run: --release is given twice; give it once"],
      [["--metadata", "build"], 'verdict run: --metadata must be KEY=VALUE with a key before the = (got "build")'],
      [["--metadata", "=42"], 'verdict run: --metadata must be KEY=VALUE with a key before the = (got "=42")'],
      [["--metadata", ""], "verdict run: --metadata must not be empty"],
      [["--metadata", "build=1", "--metadata", "build=2"], "verdict run: --metadata build is given twice; give each key once"],
      // The run's own keys say which catalog it ran: a report that misstated them could not be traced back.
      [["--metadata", "digest=abc"], "verdict run: --metadata digest: the run writes digest itself (catalog, product, set, digest, judge_trace_ids); name yours another way"],
      // Read as a second "digest" in the report, or never shown (judge_trace_ids), or an empty chip.
      [["--metadata", "Digest=abc"], "verdict run: --metadata Digest: the run writes digest itself (catalog, product, set, digest, judge_trace_ids); name yours another way"],
      [["--metadata", " digest=abc"], 'verdict run: --metadata " digest": a key must not start or end with spaces'],
      [["--metadata", "judge_trace_ids=x"], "verdict run: --metadata judge_trace_ids: the run writes judge_trace_ids itself (catalog, product, set, digest, judge_trace_ids); name yours another way"],
      [["--metadata", "build="], "verdict run: --metadata build: give a value after the = (an empty one shows as an empty chip)"],
    ];
    for (const [flags, stderr] of cases) {
      expect(await cli(exampleRun(...flags, "--out", out)), flags.join(" ")).toEqual({ code: 2, stdout: "", stderr });
      expect(existsSync(out), flags.join(" ")).toBe(false);
    }
  });
});
