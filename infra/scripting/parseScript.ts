// Reads a YAML script (the scripted agent's, the scripted judge's) and validates it with its zod
// schema; the first problem becomes one error naming the script and the field.
import { parse as parseYaml } from "yaml";
import type { z } from "zod";

export function parseScript<T extends z.ZodType>(
  text: string,
  schema: T,
  describe: string,
  makeError: (message: string) => Error,
): z.output<T> {
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    throw makeError(`${describe}: invalid YAML: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(document ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw makeError(`${describe}: ${issue.path.join(".") || "(document)"}: ${issue.message}`);
  }
  return parsed.data;
}
