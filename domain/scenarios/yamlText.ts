// Safe YAML reading for suites and catalogs, as Ruby's Psych reads them (YAML 1.1: `yes`/`on`
// are true, `0777` is octal, `<<` merges) but with no classes: no binary, sets or ordered maps,
// and a date stays the text it is. Aliases are bounded in number and in the text they repeat, an
// alias inside the node its anchor names (`a: &a [*a]`, which would make a cyclic value) is
// refused, repeated mapping keys are refused, an integer no number holds exactly is refused
// (yamlIntegers.ts), nesting is bounded (MAX_YAML_DEPTH), and every failure is reported with its
// line.
import { isAlias, isCollection, isPair, isScalar, LineCounter, parseDocument, type Document, type ScalarTag, type Tags } from "yaml";
import type { InputErrorClass } from "./errors.js";
import { assertDocumentSize, MAX_DOCUMENT_BYTES } from "./limits.js";
import { settleIntegers, unsafeIntegerRule } from "./yamlIntegers.js";
import { repeatedKey } from "./yamlKeys.js";
import { nonTextScalars, type WrittenScalar } from "./yamlScalars.js";

const REPEATED_KEY = "repeated key in one mapping";

/** Psych's booleans: only yes/true/on and no/false/off, any case (`y` and `n` stay text). */
const PSYCH_BOOL: ScalarTag = {
  tag: "tag:yaml.org,2002:bool",
  default: true,
  identify: (value) => typeof value === "boolean",
  test: /^(?:yes|true|on|no|false|off)$/i,
  resolve: (text) => /^(?:yes|true|on)$/i.test(text),
};

const CLASS_TAGS = ["bool", "binary", "omap", "pairs", "set", "timestamp"].map((name) => `tag:yaml.org,2002:${name}`);

const NUMBER_TAGS = ["int", "float"].map((name) => `tag:yaml.org,2002:${name}`);

/**
 * A number tag that leaves as text a plain scalar its pattern takes but that holds no number:
 * YAML 1.1's patterns take `e5`, `E10`, `.` and `0x_`, which the yaml package read as NaN (so a
 * key `e2` became "NaN") or failed on with a bare "Cannot convert 0x to a BigInt". Psych reads
 * them as text, and so do we. `.nan` is still NaN: it has its own tag.
 */
function textWhenNoNumber(tag: ScalarTag): ScalarTag {
  const resolve = tag.resolve;
  return {
    ...tag,
    resolve(text, onError, options) {
      let value: unknown;
      try {
        value = resolve.call(tag, text, onError, options);
      } catch {
        return text;
      }
      // The 1.1 float tag answers a Scalar node (to keep its trailing zeros), the others a number.
      const number = isScalar(value) ? value.value : value;
      return typeof number === "number" && Number.isNaN(number) ? text : value;
    },
  } as ScalarTag;
}

function psychTags(tags: Tags): Tags {
  const kept = tags.filter((tag) => !CLASS_TAGS.includes((tag as ScalarTag).tag));
  const numbers = kept.map((tag) => {
    const scalar = tag as ScalarTag;
    const isNaNTag = scalar.test?.test(".nan") === true;
    return NUMBER_TAGS.includes(scalar.tag) && typeof scalar.resolve === "function" && !isNaNTag ? textWhenNoNumber(scalar) : tag;
  });
  return [...numbers, PSYCH_BOOL];
}

const OPTIONS = {
  version: "1.1",
  customTags: psychTags,
  // Checked by repeatedKey instead, in linear time (yamlKeys.ts).
  uniqueKeys: false,
  prettyErrors: false,
  strict: true,
  stringKeys: true,
  // Integers arrive as BigInt so one past 2^53 is seen before it is rounded; settleIntegers
  // turns the rest back into numbers.
  intAsBigInt: true,
} as const;

/**
 * How plain scalars read: `psych` as Ruby's Psych reads suites and catalogs (YAML 1.1), `core` as
 * YAML 1.2 does (`yes` and `0777` stay text and a decimal), for Verdict's own files (agent and
 * judge scripts, tool rosters), which always read that way. Both refuse the same things.
 */
export type YamlDialect = "psych" | "core";

/**
 * Parses one YAML document. `prefix` starts every message (the reference's
 * `invalid evaluation suite YAML: ` / `the catalog is not valid YAML: `).
 */
export function readYaml(text: string, Err: InputErrorClass, prefix: string, dialect: YamlDialect = "psych"): unknown {
  return readDocument(text, Err, prefix, dialect).value;
}

/** As readYaml, with every scalar read as a number or a boolean and how it was written (yamlScalars.ts). */
export function readYamlScalars(text: string, Err: InputErrorClass, prefix: string, dialect: YamlDialect = "psych"): { value: unknown; scalars: WrittenScalar[] } {
  const { value, doc } = readDocument(text, Err, prefix, dialect);
  return { value, scalars: nonTextScalars(doc) };
}

function readDocument(text: string, Err: InputErrorClass, prefix: string, dialect: YamlDialect): { value: unknown; doc: Document } {
  assertDocumentSize(text, Err);
  const lineCounter = new LineCounter();
  const options = dialect === "psych" ? OPTIONS : { ...OPTIONS, version: "1.2" as const, customTags: undefined };
  const doc = parseDocument(text, { ...options, lineCounter });
  // An error, as the library's own check made it: after an earlier error, before any later one
  // and before any warning.
  const repeatedAt = repeatedKey(doc);
  if (repeatedAt !== null && (doc.errors.length === 0 || repeatedAt < doc.errors[0].pos[0])) {
    throw new Err(`${prefix}${REPEATED_KEY}`, { line: lineCounter.linePos(repeatedAt).line });
  }
  const problem = doc.errors[0] ?? doc.warnings.find((warning) => warning.code === "TAG_RESOLVE_FAILED");
  if (problem) {
    const line = lineCounter.linePos(problem.pos[0]).line;
    throw new Err(`${prefix}${reasonOf(problem)}`, { line });
  }
  const cycle = recursiveAlias(doc);
  if (cycle) throw new Err(`${prefix}${cycle.rule}`, { line: lineCounter.linePos(cycle.offset).line });
  const deep = tooDeep(doc);
  if (deep !== null) throw new Err(`${prefix}${deepRule()}`, { line: lineCounter.linePos(deep).line });
  const unsafe = settleIntegers(doc);
  if (unsafe) {
    throw new Err(unsafeIntegerRule(unsafe.source), { line: lineCounter.linePos(unsafe.offset).line, path: unsafe.path });
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    const message = (error as Error).message;
    throw new Err(`${prefix}${STACK_OVERFLOW.test(message) ? deepRule() : message.split("\n")[0]}`);
  }
  // The alias count is bounded, not what each alias stands for: 99 aliases of a 1.9 MB string
  // resolved to 190 MB of prompts, 1.2 GB of memory and 4 s before a later limit refused them.
  const repeated = aliasedPastLimit(doc);
  if (repeated) throw new Err(`${prefix}${repeated.rule}`, { line: lineCounter.linePos(repeated.offset).line });
  // Aliases nest too: anchors chained within the limit each (`&a1 [[... *a0]]`) resolve deeper,
  // into a value its own canonical YAML would then write past the limit and refuse to read back.
  if (resolvedTooDeep(value)) throw new Err(`${prefix}${deepRule()} (counting what aliases repeat)`);
  return { value, doc };
}

/** Whether arrays and objects nest past MAX_YAML_DEPTH in a resolved value. One walk, no recursion. */
function resolvedTooDeep(value: unknown): boolean {
  // The deepest each shared node (an alias's target) was reached at: reached again no deeper, its
  // subtree has been seen.
  const seen = new Map<object, number>();
  const stack: { node: unknown; depth: number }[] = [{ node: value, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (depth >= MAX_YAML_DEPTH) return true;
    if ((seen.get(node) ?? -1) >= depth) continue;
    seen.set(node, depth);
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push({ node: child, depth: depth + 1 });
  }
  return false;
}

/**
 * The first alias at which the text aliases repeat passes the document limit, or null. The text
 * a node stands for is counted once per anchor: an anchor is complete before any alias names it
 * (recursiveAlias refused the others), so a walk in document order knows its size by then.
 */
function aliasedPastLimit(doc: Document): RecursiveAlias | null {
  const anchors = new Map<string, unknown>();
  const sizes = new Map<unknown, number>();
  let resolved = 0;
  let repeated = 0;
  const stack: { node: unknown; start?: number }[] = [{ node: doc.contents }];
  while (stack.length > 0) {
    const { node, start } = stack.pop()!;
    if (start !== undefined) {
      sizes.set(node, resolved - start);
    } else if (isAlias(node)) {
      const size = sizes.get(anchors.get(node.source)) ?? 0;
      resolved += size;
      repeated += size;
      if (repeated > MAX_DOCUMENT_BYTES) {
        return { offset: node.range?.[0] ?? 0, rule: `aliases up to here repeat ${repeated.toLocaleString("en-US")} characters, more than the document limit of ${MAX_DOCUMENT_BYTES.toLocaleString("en-US")}` };
      }
    } else if (isPair(node)) {
      stack.push({ node: node.value }, { node: node.key });
    } else if (node !== null && typeof node === "object") {
      const anchor = (node as { anchor?: string }).anchor;
      if (anchor) {
        anchors.set(anchor, node);
        stack.push({ node, start: resolved });
      }
      if (isScalar(node)) resolved += node.value === null || node.value === undefined ? 0 : String(node.value).length;
      else if (isCollection(node)) for (let i = node.items.length - 1; i >= 0; i -= 1) stack.push({ node: node.items[i] });
    }
  }
  return null;
}

/**
 * The yaml library's message in the user's terms: it advises its own API for a second document
 * (`please use YAML.parseAllDocuments()`), where the caller can only send one.
 */
function reasonOf(problem: { code: string; message: string }): string {
  // The parser itself ran out of stack: thousands of levels, far past the depth allowed.
  if (STACK_OVERFLOW.test(problem.message)) return deepRule();
  if (problem.code === "MULTIPLE_DOCS") return "one YAML document is expected, and a second one starts here (after a `---` or `...` line)";
  return problem.message.split("\n")[0];
}

/**
 * How deep mappings and lists may nest. A catalog's deepest value (a scenario's `params`) is a
 * few levels down; 800 levels overflowed the stack of the canonical YAML writer, an internal
 * error, and deeper documents failed with the parser's own stack overflow. The API's JSON
 * variables stop at the same depth.
 */
const MAX_YAML_DEPTH = 64;
const STACK_OVERFLOW = /Maximum call stack size exceeded/;

function deepRule(): string {
  return `mappings and lists nest more than ${MAX_YAML_DEPTH} levels deep; at most ${MAX_YAML_DEPTH} are allowed`;
}

/** The offset of the first collection nested past MAX_YAML_DEPTH, or null. One walk, no recursion. */
function tooDeep(doc: Document): number | null {
  const stack: { node: unknown; depth: number }[] = [{ node: doc.contents, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (isPair(node)) {
      stack.push({ node: node.key, depth }, { node: node.value, depth });
    } else if (isCollection(node)) {
      if (depth >= MAX_YAML_DEPTH) return node.range?.[0] ?? 0;
      for (const item of node.items) stack.push({ node: item, depth: depth + 1 });
    }
  }
  return null;
}

/** An alias that would make a value contain itself: where it is and the rule it breaks. */
interface RecursiveAlias {
  /** Offset of the alias in the text (a LineCounter turns it into a line). */
  offset: number;
  rule: string;
}

/**
 * The first alias that lies inside the node its anchor names (`a: &a [*a]`, `a: &a {b: [*a]}`,
 * `a: &a {<<: *a}`), or null. Such an alias is the only way YAML makes a cyclic value: an alias
 * names the last anchor before it, so an anchor that is not one of its ancestors is complete
 * and cannot reach back to it. One walk, no recursion.
 */
function recursiveAlias(doc: Document): RecursiveAlias | null {
  const anchors = new Map<string, unknown>();
  const open = new Set<unknown>();
  const stack: { node: unknown; leave?: boolean }[] = [{ node: doc.contents }];
  while (stack.length > 0) {
    const { node, leave } = stack.pop()!;
    if (leave) {
      open.delete(node);
    } else if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (target !== undefined && open.has(target)) {
        return { offset: node.range?.[0] ?? 0, rule: `alias *${node.source} is inside the node its anchor &${node.source} names, so the value would contain itself` };
      }
    } else if (isPair(node)) {
      stack.push({ node: node.value }, { node: node.key });
    } else if (node !== null && typeof node === "object") {
      const anchor = (node as { anchor?: string }).anchor;
      if (anchor) anchors.set(anchor, node);
      if (isCollection(node)) {
        open.add(node);
        stack.push({ node, leave: true });
        for (let i = node.items.length - 1; i >= 0; i -= 1) stack.push({ node: node.items[i] });
      }
    }
  }
  return null;
}
