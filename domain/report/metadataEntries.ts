// Which of a run's metadata a report shows, and how: the page's chips (html/header.ts, and its
// footer) and the Markdown header's `Metadata:` line read the same entries, picked here once.
import { truncate } from "../support/index.js";

/**
 * A chip is a label, not a document: a run's `instructions` (an agent's whole prompt) made a
 * 10,000-character header line in the Markdown pasted into a pull request. report.json keeps
 * every value whole.
 */
const SHOWN_CHARACTERS = 200;

/** Scalar metadata entries as text, in the metadata's order; hashes, arrays, nils and judge trace ids are left out. */
export function scalarMetadata(metadata: Readonly<Record<string, unknown>> | null | undefined): [string, string][] {
  const entries: [string, string][] = [];
  for (const [key, value] of Object.entries(metadata ?? {})) {
    if (key === "judge_trace_ids" || value == null || typeof value === "object") continue;
    entries.push([truncate(key, SHOWN_CHARACTERS), truncate(String(value), SHOWN_CHARACTERS)]);
  }
  return entries;
}
