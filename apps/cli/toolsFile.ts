// The agent's tool roster from a YAML file, `tools: [{ name, description?, server? }]`
// (examples/support/tools.yaml): what `npm start` sends with startRun and `verdict run --tools`
// gives the Runner, so a missing-capability diagnosis names the tools the agent does have, and
// both give the same fix advice. Checked as the API checks startRun's `tools`.
import { readFile } from "node:fs/promises";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { eventSchemas } from "@verdict/domain";
import { CliError } from "./errors.js";

const toolsFile = z.object({ tools: z.array(eventSchemas.toolData.strict()).max(500, "at most 500 tools") }).strict();

export type ToolRoster = z.output<typeof toolsFile>["tools"];

/** The file's tools; an unreadable or malformed file is a usage error that names `label` and the rule. */
export async function loadToolsFile(path: string, label: string): Promise<ToolRoster> {
  let document: unknown;
  try {
    document = parseYaml(await readFile(path, "utf8"));
  } catch (error) {
    throw new CliError(`${label} ${path}: ${(error as Error).message.split("\n")[0]}`);
  }
  const parsed = toolsFile.safeParse(document);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length ? issue.path.join(".") : "the file";
    throw new CliError(`${label} ${path}: ${where}: ${issue.message} (expected tools: [{ name, description }])`);
  }
  return parsed.data.tools;
}
