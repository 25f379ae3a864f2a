// What was thrown, as text, for a message or a record; never throws itself. `String()` read a
// plain object as `[object Object]` (what it held was lost) and threw for one without a prototype
// (`Object.create(null)`), and `${error.name}: ${error.message}` threw for an Error whose
// message is a getter that throws: each made the code reporting a failure fail in turn.

/** Longest JSON of a thrown object kept (a response object may be megabytes). */
const THROWN_JSON_LIMIT = 2_000;

function safely(read: () => string): string | null {
  try {
    return read();
  } catch {
    return null;
  }
}

/**
 * An Error as `Class: message` (its constructor's name when its `name` is the generic `Error`,
 * as the reference writes a failed replay), a string as itself, an object with a text of its own
 * (a custom toString) as that, any other object as `a non-Error value was thrown: <JSON>`.
 */
export function thrownText(value: unknown): string {
  if (value instanceof Error) {
    const generic = value.name === "Error" || !value.name;
    const className = safely(() => (generic ? (value.constructor?.name ?? "Error") : String(value.name))) ?? "Error";
    return `${className}: ${safely(() => String(value.message)) ?? "(its message could not be read)"}`;
  }
  const text = safely(() => String(value));
  if (value === null || typeof value !== "object" || (text !== null && !text.startsWith("[object "))) return text ?? typeof value;
  const json = safely(() => JSON.stringify(value) ?? "");
  const shown = json === null || json === "" ? (text ?? "an object that cannot be shown") : json.length > THROWN_JSON_LIMIT ? `${json.slice(0, THROWN_JSON_LIMIT)}…` : json;
  return `a non-Error value was thrown: ${shown}`;
}
