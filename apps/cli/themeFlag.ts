// `--theme light|dark|auto`, read the same way by every command that writes the HTML page
// (`verdict run` and `verdict report`): auto follows the reader's system, as the page does with
// no theme pinned.
import { oneOf } from "./args.js";
import { CliError } from "./errors.js";

export type PageTheme = "light" | "dark" | null;

/** The page's theme (null: follow the system); refused beside a format that has no theme. */
export function themeFlag(command: string, value: string | undefined, format: string): PageTheme {
  const theme = oneOf(command, "theme", value, ["light", "dark", "auto"] as const, "auto");
  // Only the page has a theme: with another format it was ignored without a word.
  if (value !== undefined && format !== "html") throw new CliError(`verdict ${command}: --theme applies to --format html only (got --format ${format})`);
  return theme === "auto" ? null : theme;
}
