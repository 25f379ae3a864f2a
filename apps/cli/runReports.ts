// The reports one `verdict start` writes under reports/, each run's once. Both the example run
// (exampleRun.ts) and a stop (stoppedRuns.ts) write them: a Ctrl-C while the example was still
// saving a finished run's reports had the stop write the same files again, in parallel, and call
// the run one that "finished as the worker stopped". Here the stop finds the write already begun,
// waits for it, and knows the run had finished before the stop.
import { mkdir } from "node:fs/promises";
import { downloadName } from "@verdict/api";
import { CliError, EXIT } from "./errors.js";
import type { RunRef } from "./exampleRun.js";
import type { GqlClient } from "./gqlClient.js";
import { writeOutput } from "./outputFile.js";
import { reportPaths, type ReportFile } from "./reportFiles.js";

export interface ReportPaths {
  htmlPath: string;
  markdownPath: string;
}

export class RunReports {
  /** By run id: the write begun for it, whether done yet or not. */
  private readonly writes = new Map<string, Promise<ReportPaths>>();

  constructor(private readonly client: GqlClient, readonly dir: string) {}

  /** Writes the run's HTML and Markdown reports, or answers the write already begun for it. */
  write(evaluation: { id: string; name: string }, run: RunRef): Promise<ReportPaths> {
    let written = this.writes.get(run.id);
    if (!written) {
      written = mkdir(this.dir, { recursive: true }).then(() => saveReports(this.client, evaluation, run, this.dir));
      this.writes.set(run.id, written);
    }
    return written;
  }

  /** The write begun for the run, if one was: the run had finished and its reports were asked for. */
  begun(runId: string): Promise<ReportPaths> | undefined {
    return this.writes.get(runId);
  }
}

/**
 * The run's HTML and Markdown reports, under `dir`: named as downloaded, unless another run's
 * reports hold those names (reportFiles.ts).
 */
async function saveReports(client: GqlClient, evaluation: { id: string; name: string }, run: RunRef, dir: string): Promise<ReportPaths> {
  const base = `/api/evaluations/${evaluation.id}/runs/${run.id}/report`;
  const files = [
    await fetchReport(client, base, "html", downloadName(evaluation.name, run.number, "html")),
    await fetchReport(client, base, "md", downloadName(evaluation.name, run.number, "md")),
  ];
  const [htmlPath, markdownPath] = await reportPaths(dir, run.id, files);
  // Aside, then renamed: a start killed while writing left an empty report under reports/ for good.
  await writeOutput(htmlPath, files[0].text);
  await writeOutput(markdownPath, files[1].text);
  return { htmlPath, markdownPath };
}

/** A report export as the API names its download. */
async function fetchReport(client: GqlClient, base: string, ext: "html" | "md", fallbackName: string): Promise<ReportFile> {
  const res = await client.get(`${base}${ext === "md" ? ".md" : ""}?download=1`);
  if (!res.ok) throw new CliError(`the report export ${base} answered ${res.status}: ${await res.text()}`, EXIT.failed);
  const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? fallbackName;
  return { name, text: await res.text() };
}
