// What a request carries must arrive as it was sent, and be storable. Checked at the edge, in
// every argument literal and every variable (JSON scalars included, keys too), so such input is
// a VALIDATION error naming where it was, not an event no read model can project or a value
// quietly changed:
// - text: no NUL character and no unpaired UTF-16 surrogate (JSON allows both as escapes;
//   PostgreSQL's `text` and `jsonb` refuse them);
// - numbers: no integer past ±2^53-1. The HTTP body and graphql-ws messages are JSON.parse'd and
//   a JSON scalar's literal is read as a float: `1234567890123456789` arrived as
//   1234567890123456800, as YAML text and pasted JSON suites (which refuse it) once read it.
//   What agents and their hosts report (a replay, a report envelope) is exempt: see INTEGER.
import { isStorableText, TEXT_RULE, unstorableTextPath } from "@verdict/domain";
import { GraphQLError, Kind, type DocumentNode, type ValueNode } from "graphql";

interface InputRule {
  /** Whether a literal's leaf breaks the rule. */
  breaks(node: ValueNode): boolean;
  /** Where inside a variable's value the rule is broken ("" for the value itself), or null. */
  pathIn(value: unknown): string | null;
  /** The rule, as the error states it after the field. */
  message: string;
  /** Arguments (`field.argument`) the rule leaves alone, each for the reason its rule gives. */
  exempt: ReadonlySet<string>;
}

const TEXT: InputRule = {
  breaks: (node) => node.kind === Kind.STRING && !isStorableText(node.value),
  pathIn: (value) => unstorableTextPath(value, ""),
  message: TEXT_RULE,
  // What an agent said, which the domain records with U+FFFD in place of such characters (an
  // external run's host cannot be asked to rewrite its agent's answer): not refused.
  exempt: new Set(["recordReplay.replay"]),
};

const INTEGER: InputRule = {
  breaks: (node) => node.kind === Kind.INT && !Number.isSafeInteger(Number(node.value)),
  pathIn: (value) => inexactIntegerPath(value, ""),
  message: `is an integer beyond ±${Number.MAX_SAFE_INTEGER}, past which numbers are not exact, so it would not be kept as sent; inside a JSON value, send it as a string`,
  // What an agent's tools returned and the trace ids of a run (a replay's tool calls and
  // metadata, a report's results) can hold 64-bit ids the host cannot be asked to rewrite:
  // refused, the pair or the whole report would be lost. They are kept as JSON.parse read them.
  exempt: new Set(["recordReplay.replay", "importReport.envelope"]),
};

/** Where in a parsed JSON value the first number stands for an integer a number cannot hold exactly. */
function inexactIntegerPath(value: unknown, prefix: string, depth = 0): string | null {
  if (typeof value === "number") return Number.isInteger(value) && !Number.isSafeInteger(value) ? prefix : null;
  if (depth > 200 || value === null || typeof value !== "object") return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = inexactIntegerPath(value[i], `${prefix}[${i}]`, depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, inner] of Object.entries(value)) {
    const found = inexactIntegerPath(inner, `${prefix}.${key}`, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/** `badVariables`: variable name -> where inside its value the rule is broken ("" for the value itself). */
function badInLiteral(rule: InputRule, node: ValueNode, path: string, badVariables: Map<string, string>): string | null {
  switch (node.kind) {
    case Kind.VARIABLE: {
      const inner = badVariables.get(node.name.value);
      return inner === undefined ? null : `${path}${inner} ($${node.name.value})`;
    }
    case Kind.LIST:
      for (let i = 0; i < node.values.length; i++) {
        const found = badInLiteral(rule, node.values[i], `${path}[${i}]`, badVariables);
        if (found) return found;
      }
      return null;
    case Kind.OBJECT:
      for (const field of node.fields) {
        const found = badInLiteral(rule, field.value, `${path}.${field.name.value}`, badVariables);
        if (found) return found;
      }
      return null;
    default:
      return rule.breaks(node) ? path : null;
  }
}

/** Names of the variables a literal uses, at any depth. */
function variablesIn(node: ValueNode, into: Set<string>): void {
  if (node.kind === Kind.VARIABLE) into.add(node.name.value);
  else if (node.kind === Kind.LIST) for (const value of node.values) variablesIn(value, into);
  else if (node.kind === Kind.OBJECT) for (const field of node.fields) variablesIn(field.value, into);
}

/** A VALIDATION error naming the first argument or variable whose text or number breaks its rule, or null. */
export function inputProblem(document: DocumentNode, variables: Record<string, unknown> | null | undefined): GraphQLError | null {
  return problemFor(TEXT, document, variables) ?? problemFor(INTEGER, document, variables);
}

function problemFor(rule: InputRule, document: DocumentNode, variables: Record<string, unknown> | null | undefined): GraphQLError | null {
  const report = (field: string) =>
    new GraphQLError(`${field}: ${rule.message}`, { extensions: { code: "VALIDATION", field, http: { status: 400 } } });
  const badVariables = new Map<string, string>();
  for (const [name, value] of Object.entries(variables ?? {})) {
    const inner = rule.pathIn(value);
    if (inner !== null) badVariables.set(name, inner);
  }
  let found: string | null = null;
  const exempted = new Set<string>();
  // Iterative: this runs on graphql-ws documents before validation has bounded their depth.
  const stack: Array<{ node: unknown; trail: string[] }> = document.definitions.map((node) => ({ node, trail: [] }));
  while (stack.length && !found) {
    const { node, trail } = stack.pop()!;
    if (!node || typeof node !== "object") continue;
    const n = node as { kind?: string; name?: { value: string }; alias?: { value: string }; arguments?: { name: { value: string }; value: ValueNode }[] };
    const fallback = n as { defaultValue?: ValueNode; variable?: { name: { value: string } } };
    if (n.kind === Kind.VARIABLE_DEFINITION && fallback.defaultValue && fallback.variable) {
      found ??= badInLiteral(rule, fallback.defaultValue, `$${fallback.variable.name.value}`, badVariables);
    }
    const here = n.kind === Kind.FIELD && n.name ? [...trail, n.alias?.value ?? n.name.value] : trail;
    for (const argument of n.arguments ?? []) {
      if (n.name && rule.exempt.has(`${n.name.value}.${argument.name.value}`)) variablesIn(argument.value, exempted);
      else found ??= badInLiteral(rule, argument.value, [...here, argument.name.value].join("."), badVariables);
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === "arguments" || key === "loc" || key === "defaultValue") continue;
      if (Array.isArray(child)) for (let i = child.length - 1; i >= 0; i--) stack.push({ node: child[i], trail: here });
      else if (child && typeof child === "object") stack.push({ node: child, trail: here });
    }
  }
  // A variable no argument uses (GraphQL validation refuses those anyway) is named by itself.
  const unused = [...badVariables].find(([name]) => !exempted.has(name));
  if (!found && unused) found = `$${unused[0]}${unused[1]}`;
  return found ? report(found) : null;
}
