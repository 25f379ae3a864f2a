// The agent's tool roster from a YAML file, `tools: [{ name, description?, server? }]`
// (examples/support/tools.yaml): what `npm start` sends with startRun and `verdict run --tools`
// gives the Runner, so a missing-capability diagnosis names the tools the agent does have, and
// both give the same fix advice. Checked as the API checks startRun's `tools`.
import { statSync } from "node:fs";
import { z } from "zod";
import { cannotReadRule, eventSchemas, InvalidDocument, MAX_DOCUMENT_BYTES, notUtf8Rule, readUtf8AtMost, readYaml, type BoundedText } from "@verdict/domain";
import { CliError } from "./errors.js";
import { toolsIssueText } from "./toolsIssue.js";

const toolsFile = z.object({ tools: z.array(eventSchemas.toolInput.strict()).max(500, "at most 500 tools") }).strict();

export type ToolRoster = z.output<typeof toolsFile>["tools"];

/**
 * The file's tools; an unreadable, oversized or malformed file is a usage error that names
 * `label` and the rule. Read as catalogs are: at most 2 MB (a 300 MB roster ran the process out
 * of memory), and UTF-8 only.
 */
export async function loadToolsFile(path: string, label: string): Promise<ToolRoster> {
  const refused = (rule: string) => new CliError(`${label} ${path}: ${rule}`);
  let read: BoundedText;
  try {
    if (statSync(path).isDirectory()) throw refused("a directory, not a tools file");
    read = readUtf8AtMost(path, MAX_DOCUMENT_BYTES);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw refused((error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : cannotReadRule(error));
  }
  if ("overLimit" in read) throw refused(`over ${MAX_DOCUMENT_BYTES.toLocaleString("en-US")} bytes (reading stopped there); at most 2 MB are allowed`);
  if ("notUtf8" in read) throw refused(`line ${read.notUtf8.line}: ${notUtf8Rule(read.notUtf8)}`);
  let document: unknown;
  try {
    // The domain's reader, as for catalogs (YAML 1.2 scalars): unknown tags (`!!js/function`,
    // accepted with a warning on stderr) and repeated keys are refused, nesting and aliases
    // bounded (deep nesting overflowed the stack), each with its line.
    document = readYaml(read.text, InvalidDocument, "not valid YAML: ", "core");
  } catch (error) {
    if (error instanceof InvalidDocument) throw refused(error.message);
    throw error;
  }
  const parsed = toolsFile.safeParse(document);
  if (!parsed.success) {
    const problem = toolsIssueText(parsed.error.issues, document, Object.keys(eventSchemas.toolInput.shape));
    throw new CliError(`${label} ${path}: ${problem} (expected tools: [{ name, description }])`);
  }
  return parsed.data.tools;
}
