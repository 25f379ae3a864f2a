// Paths of the shared YAML fixtures in test/fixtures (tests only).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export function fixturePath(relative: string): string {
  return fileURLToPath(new URL(`../../test/fixtures/${relative}`, import.meta.url));
}

export function fixture(relative: string): string {
  return readFileSync(fixturePath(relative), "utf8");
}
