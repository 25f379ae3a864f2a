// Where `verdict start` saves a run's reports: `<evaluation>-run-<number>.{html,md}` as the API's
// download names them, unless a report of another run is already there. A run's number is not
// unique to a reports directory (a home whose events were reset but whose reports were kept, or
// one evaluation split in two by an older Verdict, numbers a second run 1), and replacing that
// file destroyed the only copy of the earlier run's report. So a name holding other bytes is left
// alone and the run's id is added to the name. Bytes, not a marker: a report is a pure function
// of its run's events, so the same run rewrites the same bytes (a re-save changes nothing), and
// nothing in the file records whose run it was.
import { readFile } from "node:fs/promises";
import { join } from "node:path";

export interface ReportFile {
  /** The download's name, e.g. support-support-smoke-run-1.html. */
  name: string;
  text: string;
}

/** `<name>-<tag>.<ext>`: support-support-smoke-run-1-0d1b7c99.html. */
function tagged(name: string, tag: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? `${name.slice(0, dot)}-${tag}${name.slice(dot)}` : `${name}-${tag}`;
}

/** True when nothing is at `path` or it holds exactly `text` (this run's report, saved before). */
async function freeFor(path: string, text: string): Promise<boolean> {
  try {
    return (await readFile(path, "utf8")) === text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
}

/**
 * The paths to write the run's files to, one naming for all of them (the HTML and Markdown of a
 * run keep matching names): the download names, else with the run id's first 8 characters, else
 * with the whole id, which no other run's file can hold.
 */
export async function reportPaths(dir: string, runId: string, files: readonly ReportFile[]): Promise<string[]> {
  const namings = [(name: string) => name, (name: string) => tagged(name, runId.slice(0, 8))];
  for (const naming of namings) {
    const paths = files.map((file) => join(dir, naming(file.name)));
    const free = await Promise.all(paths.map((path, i) => freeFor(path, files[i].text)));
    if (free.every(Boolean)) return paths;
  }
  return files.map((file) => join(dir, tagged(file.name, runId)));
}
