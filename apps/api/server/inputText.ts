// Text a request carries must be text PostgreSQL can store: no NUL character and no unpaired
// UTF-16 surrogate (JSON allows both as escapes; `text` and `jsonb` refuse them). Checked at the
// edge, in every argument literal and every variable (JSON scalars included, keys too), so such
// input is a VALIDATION error naming where it was, not an event no read model can project.
import { isStorableText, TEXT_RULE, unstorableTextPath } from "@verdict/domain";
import { GraphQLError, Kind, type DocumentNode, type ValueNode } from "graphql";

/** `badVariables`: variable name -> where inside its value the bad text is ("" for the value itself). */
function badInLiteral(node: ValueNode, path: string, badVariables: Map<string, string>): string | null {
  switch (node.kind) {
    case Kind.STRING:
      return isStorableText(node.value) ? null : path;
    case Kind.VARIABLE: {
      const inner = badVariables.get(node.name.value);
      return inner === undefined ? null : `${path}${inner} ($${node.name.value})`;
    }
    case Kind.LIST:
      for (let i = 0; i < node.values.length; i++) {
        const found = badInLiteral(node.values[i], `${path}[${i}]`, badVariables);
        if (found) return found;
      }
      return null;
    case Kind.OBJECT:
      for (const field of node.fields) {
        const found = badInLiteral(field.value, `${path}.${field.name.value}`, badVariables);
        if (found) return found;
      }
      return null;
    default:
      return null;
  }
}

/**
 * Arguments carrying what an agent said, which the domain records with U+FFFD in place of such
 * characters (an external run's host cannot be asked to rewrite its agent's answer): not refused.
 */
const REPAIRED_ARGUMENTS = new Set(["recordReplay.replay"]);

/** Names of the variables a literal uses, at any depth. */
function variablesIn(node: ValueNode, into: Set<string>): void {
  if (node.kind === Kind.VARIABLE) into.add(node.name.value);
  else if (node.kind === Kind.LIST) for (const value of node.values) variablesIn(value, into);
  else if (node.kind === Kind.OBJECT) for (const field of node.fields) variablesIn(field.value, into);
}

/** A VALIDATION error naming the first argument or variable whose text breaks the rule, or null. */
export function textProblem(document: DocumentNode, variables: Record<string, unknown> | null | undefined): GraphQLError | null {
  const report = (field: string) =>
    new GraphQLError(`${field}: ${TEXT_RULE}`, { extensions: { code: "VALIDATION", field, http: { status: 400 } } });
  const badVariables = new Map<string, string>();
  for (const [name, value] of Object.entries(variables ?? {})) {
    const inner = unstorableTextPath(value, "");
    if (inner !== null) badVariables.set(name, inner);
  }
  let found: string | null = null;
  const repaired = new Set<string>();
  // Iterative: this runs on graphql-ws documents before validation has bounded their depth.
  const stack: Array<{ node: unknown; trail: string[] }> = document.definitions.map((node) => ({ node, trail: [] }));
  while (stack.length && !found) {
    const { node, trail } = stack.pop()!;
    if (!node || typeof node !== "object") continue;
    const n = node as { kind?: string; name?: { value: string }; alias?: { value: string }; arguments?: { name: { value: string }; value: ValueNode }[] };
    const fallback = n as { defaultValue?: ValueNode; variable?: { name: { value: string } } };
    if (n.kind === Kind.VARIABLE_DEFINITION && fallback.defaultValue && fallback.variable) {
      found ??= badInLiteral(fallback.defaultValue, `$${fallback.variable.name.value}`, badVariables);
    }
    const here = n.kind === Kind.FIELD && n.name ? [...trail, n.alias?.value ?? n.name.value] : trail;
    for (const argument of n.arguments ?? []) {
      if (n.name && REPAIRED_ARGUMENTS.has(`${n.name.value}.${argument.name.value}`)) variablesIn(argument.value, repaired);
      else found ??= badInLiteral(argument.value, [...here, argument.name.value].join("."), badVariables);
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === "arguments" || key === "loc" || key === "defaultValue") continue;
      if (Array.isArray(child)) for (let i = child.length - 1; i >= 0; i--) stack.push({ node: child[i], trail: here });
      else if (child && typeof child === "object") stack.push({ node: child, trail: here });
    }
  }
  // A variable no argument uses (GraphQL validation refuses those anyway) is named by itself.
  const unused = [...badVariables].find(([name]) => !repaired.has(name));
  if (!found && unused) found = `$${unused[0]}${unused[1]}`;
  return found ? report(found) : null;
}
