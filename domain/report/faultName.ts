// A fault as both reports name it to people (reference-core §13.6, §19: "fault name"):
// `expected_tool_not_called` reads `expected tool not called`. JSON keeps the key.

const faultNames = new Map<string, string>();

/** `expected_tool_not_called` -> `expected tool not called` (a handful of faults, each named once). */
export function faultName(fault: string): string {
  let name = faultNames.get(fault);
  if (name === undefined) {
    name = fault.replace(/_/g, " ");
    if (faultNames.size < 1000) faultNames.set(fault, name);
  }
  return name;
}
