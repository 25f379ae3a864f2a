// The agent's tool roster as the Runner takes it (reference-core §11): a map name -> description,
// or a list of names or of `{ name, description }` objects; always `name -> description` strings.

export type AvailableToolsInput =
  | Readonly<Record<string, unknown>>
  | readonly (string | { name: string; description?: string | null })[]
  | null
  | undefined;

export function normalizeTools(input: AvailableToolsInput): Record<string, string> {
  const out: Record<string, string> = {};
  if (!input) return out;
  if (Array.isArray(input)) {
    for (const entry of input) {
      if (typeof entry === "string") out[entry] = "";
      else if (entry && typeof entry.name === "string") out[entry.name] = entry.description == null ? "" : String(entry.description);
    }
    return out;
  }
  for (const [name, description] of Object.entries(input)) out[name] = description == null ? "" : String(description);
  return out;
}
