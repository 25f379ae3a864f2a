// Reads a YAML script (the scripted agent's, the scripted judge's) and validates it with its zod
// schema; the first problem becomes one error naming the script and the field. The YAML is read
// by the domain's reader, as catalogs are (YAML 1.2 scalars): unknown tags (`!!js/function`) and
// repeated keys are refused, nesting and aliases are bounded, an alias inside the node its anchor
// names (`a: &a [*a]`, a cyclic value that broke later, when a reply was written into an event) is
// refused, each with its line.
import { InvalidDocument, readYaml } from "@verdict/domain";
import type { z } from "zod";

export function parseScript<T extends z.ZodType>(
  text: string,
  schema: T,
  describe: string,
  makeError: (message: string) => Error,
): z.output<T> {
  let document: unknown;
  try {
    document = readYaml(text, InvalidDocument, "", "core");
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
