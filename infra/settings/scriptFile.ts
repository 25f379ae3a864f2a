// A script file a runtime setting points at (--agent / VERDICT_AGENT scripted:<path>, --judge /
// VERDICT_JUDGE scripted:<path>): its load errors name the setting, so the user knows which of
// their settings to fix, and the file (a malformed script said only `agent script: invalid YAML: …`).
// The CLI and the worker map the SettingError to their own error.
import { SettingError } from "./wholeNumber.js";

/** The load's words, led by the file unless they name it already (a size or encoding refusal does). */
function withPath(path: string, message: string): string {
  return message.includes(path) ? message : `${path}: ${message}`;
}

/** `load()`, its failures as SettingErrors naming `setting`: no such file, a directory, or the load's own words. */
export async function scriptLoaded<T>(setting: string, path: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT") throw new SettingError(setting, `${setting}: no such file ${path}`);
    if (code === "EISDIR") throw new SettingError(setting, `${setting}: ${path} is a directory, not a script file`);
    throw new SettingError(setting, `${setting}: ${withPath(path, (error as Error).message)}`);
  }
}
