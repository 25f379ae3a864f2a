// A replay is recorded as JSON (a ReplayRecorded event, a report's `--format json`), so what a host
// hands `Replay.from` must be JSON. A value that is not (a tool call's `arguments` that refers to
// itself, a BigInt anywhere) passed validation and was scored, then crashed the whole report's
// JSON.stringify ("Converting circular structure to JSON") naming no field, no scenario: it is
// refused here, naming the field and the rule, so only that pair is a run_error.

/** Where in `value` it stops being JSON, as `[path, rule]`, or null when JSON.stringify takes it. */
export function jsonProblem(value: unknown, path: string): [string, string] | null {
  // Most fields are text or numbers: nothing to walk (the Runner checks every replay it is given).
  if (typeof value !== "object" && typeof value !== "bigint") return null;
  try {
    const problem = walk(value, "", []);
    return problem && [path + problem.at.reverse().join(""), problem.rule];
  } catch (error) {
    // Nested past the stack (a chain thousands of objects deep): JSON.stringify cannot take it either.
    if (error instanceof RangeError) return [path, "nested too deeply to be recorded as JSON: give a flatter value"];
    throw error;
  }
}

/** A problem's rule, and the steps to it from the innermost out (built only once one is found). */
interface Problem {
  at: string[];
  rule: string;
}

function walk(value: unknown, key: string, ancestors: object[]): Problem | null {
  if (typeof value === "bigint") return { at: [], rule: `a BigInt (${value}n), which JSON cannot hold: give a number or a string` };
  if (value === null || typeof value !== "object") return null;
  let given: unknown = value;
  // As JSON.stringify reads it: a Date, a Buffer or a class with toJSON is what that answers.
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === "function") {
    try {
      given = toJSON.call(value, key);
    } catch (error) {
      return { at: [], rule: `its toJSON() threw (${error instanceof Error ? error.message : String(error)}), so it cannot be recorded as JSON` };
    }
    if (given === null || typeof given !== "object") return typeof given === "bigint" ? walk(given, key, ancestors) : null;
  }
  const object = given as object;
  if (ancestors.includes(object)) return { at: [], rule: "circular (it contains itself), which JSON cannot hold: give a copy without the cycle" };
  ancestors.push(object);
  try {
    if (Array.isArray(object)) {
      for (let index = 0; index < object.length; index += 1) {
        const problem = walk(object[index], String(index), ancestors);
        if (problem) return stepOut(problem, `[${index}]`);
      }
      return null;
    }
    for (const name of Object.keys(object)) {
      const problem = walk((object as Record<string, unknown>)[name], name, ancestors);
      if (problem) return stepOut(problem, `.${name}`);
    }
    return null;
  } finally {
    ancestors.pop();
  }
}

/** The problem one level out: the step taken to reach it added to its path. */
function stepOut(problem: Problem, step: string): Problem {
  problem.at.push(step);
  return problem;
}
