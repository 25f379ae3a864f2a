// `verdict help` is what a user reads instead of the code: every flag a command takes is shown
// under that command, and no command shows a flag it would refuse.
import { describe, expect, it } from "vitest";
import { FLAG_SPECS } from "./flagSpecs.js";
import { USAGE } from "./usage.js";

/** The help text of each command: its line under "Commands" and the lines indented below it. */
function sections(): Map<string, string> {
  const commands = USAGE.slice(USAGE.indexOf("Commands\n"), USAGE.indexOf("\nEnvironment"));
  const out = new Map<string, string>();
  for (const block of commands.split(/\n(?= {2}\S)/).slice(1)) {
    const name = Object.keys(FLAG_SPECS).find((command) => block.trimStart().startsWith(`${command} `) || block.trim() === command);
    if (name) out.set(name, block);
  }
  return out;
}

describe("verdict help", () => {
  it("shows every command's flags under it, and only those", () => {
    const help = sections();
    for (const [command, spec] of Object.entries(FLAG_SPECS)) {
      const text = help.get(command);
      expect(text, `no help for ${command}`).toBeDefined();
      const taken = [...("values" in spec ? spec.values : []), ...("booleans" in spec ? spec.booleans : [])].sort();
      const shown = [...new Set([...text!.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]))].sort();
      expect(shown, command).toEqual(taken);
    }
  });
});
