// About how many bytes a field's answer takes: its resolved value as far as the query selects it,
// each leaf weighed as JSON writes it in UTF-8 (jsonBytes.ts; not estimatedBytes.ts' byte a
// character, which is memory and weighed escaped text at up to a sixth). The value itself is no
// measure: `results { totalCount }` of a run with 60 KB of answer a pair resolves the whole list
// but answers a number, and weighed whole it would be refused. Unlike jsonBytes, a value selected
// twice counts twice (the JSON repeats it). Fields a value does not hold (answered by their own
// resolvers) count nothing here; the heavy ones among them are weighed where they resolve.
import { Kind, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode } from "graphql";
import { jsonBytes } from "./jsonBytes.js";

type Fragments = Readonly<Record<string, FragmentDefinitionNode>>;

/** One key of an object's answer: the property it is read from and what is selected of it. */
interface Selected {
  key: string;
  property: string;
  sets: SelectionSetNode[];
}

/** What one weighing selects, worked out once per selection (a list's every item shares its item's). */
type Selections = WeakMap<readonly SelectionSetNode[], Selected[]>;

/** The weight of `value` answered with `fields`' selections (the field's nodes, one per place the query asks it). */
export function answerWeight(value: unknown, fields: readonly FieldNode[], fragments: Fragments): number {
  const sets = fields.flatMap((field) => (field.selectionSet ? [field.selectionSet] : []));
  return weigh(value, sets, fragments, new WeakMap());
}

function weigh(value: unknown, sets: readonly SelectionSetNode[], fragments: Fragments, selections: Selections): number {
  if (value === null || value === undefined) return 8;
  if (Array.isArray(value)) {
    let total = 16;
    for (const item of value) total += weigh(item, sets, fragments, selections);
    return total;
  }
  // A leaf, or a JSON scalar answered whole.
  if (sets.length === 0 || typeof value !== "object") return jsonBytes(value);
  let selected = selections.get(sets);
  if (!selected) {
    selected = selectedOf(sets, fragments);
    selections.set(sets, selected);
  }
  let total = 16;
  for (const { key, property, sets: inner } of selected) {
    const child = property === "__typename" ? "" : (value as Record<string, unknown>)[property];
    if (child === undefined || typeof child === "function") continue;
    total += key.length + weigh(child, inner, fragments, selections);
  }
  return total;
}

/** The keys `sets` answer, fields asked twice under one key merged as graphql-js merges them. */
function selectedOf(sets: readonly SelectionSetNode[], fragments: Fragments): Selected[] {
  const byKey = new Map<string, Selected>();
  for (const field of fieldsOf(sets, fragments, new Set())) {
    const key = field.alias?.value ?? field.name.value;
    let found = byKey.get(key);
    if (!found) byKey.set(key, (found = { key, property: field.name.value, sets: [] }));
    if (field.selectionSet) found.sets.push(field.selectionSet);
  }
  return [...byKey.values()];
}

/** The fields `sets` select, through fragments (type conditions aside: a field the value lacks counts nothing). */
function* fieldsOf(sets: readonly SelectionSetNode[], fragments: Fragments, open: Set<string>): Iterable<FieldNode> {
  for (const set of sets) {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) yield selection;
      else if (selection.kind === Kind.INLINE_FRAGMENT) yield* fieldsOf([selection.selectionSet], fragments, open);
      else {
        const fragment = fragments[selection.name.value];
        if (!fragment || open.has(fragment.name.value)) continue;
        open.add(fragment.name.value);
        yield* fieldsOf([fragment.selectionSet], fragments, open);
        open.delete(fragment.name.value);
      }
    }
  }
}
