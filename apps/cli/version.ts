// `verdict --version` (or `verdict version`): the version in the repository's package.json, the
// one `npm start` and scripts/verdict.mjs run. It answered `unknown command "--version"`.
import { readFileSync } from "node:fs";

export function verdictVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: unknown };
  return typeof manifest.version === "string" ? manifest.version : "unknown";
}
