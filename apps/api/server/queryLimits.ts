// Validation rules that refuse a query before it runs: one too deep, or one whose estimated
// cost (every field 1, a connection's `edges` multiplied by its `first`, other lists by a default
// page) is too high.
import {
  GraphQLError, Kind, getNamedType, getNullableType, isListType, isObjectType, isInterfaceType, valueFromASTUntyped,
  type ASTVisitor, type FieldNode, type FragmentDefinitionNode, type GraphQLField, type GraphQLType, type ListValueNode,
  type ObjectValueNode, type OperationDefinitionNode, type SelectionSetNode, type ValidationContext,
} from "graphql";

const DEFAULT_LIST = 20;

/**
 * Fields whose answer is a whole run rendered, replayed or compared (a large run's HTML page,
 * Markdown or JSON document, its every event, every pair of two runs, is megabytes): each costs
 * this much instead of 1, so aliases cannot repeat one in a query (4,000 `html` aliases of a
 * 6-result run answered 128 MB). Whole lists cost WHOLE_LIST_COST.
 */
export const FIELD_COSTS: Readonly<Record<string, number>> = {
  "RunReport.html": 1000,
  "RunReport.markdown": 1000,
  "RunReport.json": 1000,
  // One piece of the report: a scenario's every answer, a run's every failing key, a verdict
  // with every pair compared (up to ~100 KB on a large run). Priced so a query holds a hundred at
  // most: 4,000 aliases of one piece would have answered hundreds of MB at a cost of 4,000.
  "RunReport.verdictMarkdown": 50,
  "RunReport.fixItemsMarkdown": 50,
  "RunReport.scenarioMarkdown": 50,
  // A run's metadata as its host gave it (an imported report's, or what its start recorded): one
  // JSON value, but a host may put megabytes there, and runs are listed 100 a page and aliased.
  // Priced above 1, so heavy: weighed against the answer budget (its bytes bounded there), and
  // lightly, so a page of 100 runs can still ask for it (1,000 of maxCost's 5,000).
  "Run.metadata": 10,
  "Query.runAudit": 500,
  // Its change lists are plain lists of every pair of both runs, counted as a default page.
  "Query.compareRuns": 500,
};

/**
 * Fields whose answer is small but whose reading is not: priced above 1 like FIELD_COSTS, but not
 * heavy fields (their answers are numbers, so they do not take turns at the answer budget, which
 * would read each run's counts one after another instead of batched). A run's usage figures
 * (the agent's cost counts, the judge's calls by kind) are an aggregate over every scored result
 * of the run: one query a request for all its runs (runUsageLoader.ts), but a scan of each run's
 * rows, more than a column and far less than a list. Each of these asks for the same aggregate.
 */
const AGGREGATE_FIELD_COSTS: Readonly<Record<string, number>> = {
  "UsagePart.priced": 5,
  "UsagePart.unpriced": 5,
  "UsagePart.reported": 5,
  "UsagePart.estimated": 5,
  "UsagePart.costBasis": 5,
  "UsagePart.replays": 5,
  "UsagePart.perInteraction": 5,
  "UsagePart.modelTimeMs": 5,
  "UsagePart.model": 5,
  "UsagePart.byKind": 5,
  "UsagePart.run": 5,
  "UsagePart.source": 5,
};

/**
 * Plain lists that are short by nature, counted at this length instead of a default page: a
 * judge's calls by kind (score, recommend, verdict, define; an imported report may name others,
 * each a few bytes; never more than 16 kinds, the rest folded into "other": JUDGE_KINDS_MAX).
 * Counted as 20, a list of 100 runs asking for them was refused.
 */
const SHORT_LISTS: Readonly<Record<string, number>> = {
  "UsagePart.byKind": 4,
  "JudgeRunUsage.byKind": 4,
};

/** Fragments spread within fragments deeper than this are refused rather than followed. */
export const MAX_SPREAD_NESTING = 100;

class SpreadTooDeep extends Error {}

/**
 * One validation's fragments, with each fragment's depth and cost worked out once: followed
 * afresh at every spread, `fragment A { ...B ...B }` chains doubled the work per level (30 levels,
 * a billion visits), and listing the fragments again per operation made many operations quadratic.
 */
interface Walk {
  fragments: Map<string, FragmentDefinitionNode>;
  depths: Map<string, number>;
  costs: Map<string, number>;
  /** Fragments being followed now (a cycle, which validation refuses anyway, counts 0). */
  open: Set<string>;
}

function walkOf(context: ValidationContext): Walk {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of context.getDocument().definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  return { fragments, depths: new Map(), costs: new Map(), open: new Set() };
}

/** The memoized value of a fragment, `measure`d at most once per key; null when not followed. */
function throughFragment(walk: Walk, memo: Map<string, number>, key: string, name: string, measure: (fragment: FragmentDefinitionNode) => number): number | null {
  const fragment = walk.fragments.get(name);
  if (!fragment || walk.open.has(name)) return null;
  let value = memo.get(key);
  if (value === undefined) {
    if (walk.open.size >= MAX_SPREAD_NESTING) throw new SpreadTooDeep();
    walk.open.add(name);
    try {
      value = measure(fragment);
    } finally {
      walk.open.delete(name);
    }
    memo.set(key, value);
  }
  return value;
}

function spreadTooDeep(node: OperationDefinitionNode): GraphQLError {
  return new GraphQLError(`fragments are spread within fragments more than ${MAX_SPREAD_NESTING} levels deep`, { nodes: [node], extensions: { code: "VALIDATION" } });
}

function depthOf(set: SelectionSetNode | undefined, walk: Walk): number {
  if (!set) return 0;
  let deepest = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value.startsWith("__")) continue;
      deepest = Math.max(deepest, (selection.selectionSet ? 1 : 0) + depthOf(selection.selectionSet, walk));
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      deepest = Math.max(deepest, depthOf(selection.selectionSet, walk));
    } else {
      const name = selection.name.value;
      const depth = throughFragment(walk, walk.depths, name, name, (fragment) => depthOf(fragment.selectionSet, walk));
      if (depth !== null) deepest = Math.max(deepest, depth);
    }
  }
  return deepest;
}

export function depthLimit(maxDepth: number) {
  return (context: ValidationContext): ASTVisitor => {
    const walk = walkOf(context);
    return {
      OperationDefinition(node: OperationDefinitionNode) {
        let depth: number;
        try {
          depth = depthOf(node.selectionSet, walk);
        } catch (error) {
          if (!(error instanceof SpreadTooDeep)) throw error;
          context.reportError(spreadTooDeep(node));
          return;
        }
        if (depth > maxDepth) {
          context.reportError(
            new GraphQLError(`query is nested ${depth} levels deep; the limit is ${maxDepth}`, { nodes: [node], extensions: { code: "VALIDATION" } }),
          );
        }
      },
    };
  };
}

/**
 * A connection's page size as asked; never below 0, so a negative `first` cannot cancel other
 * fields' cost. A `first` that is no GraphQL Int (a fraction, or past 32 bits) counts as a
 * default page: the operation is refused for its type (BAD_USER_INPUT), not for a cost it
 * could never have.
 */
function listSize(field: FieldNode, variables: Record<string, unknown>): number {
  const first = field.arguments?.find((a) => a.name.value === "first");
  if (!first) return DEFAULT_LIST;
  const value = first.value.kind === Kind.INT ? Number(first.value.value) : first.value.kind === Kind.VARIABLE ? variables[first.value.name.value] : null;
  return isGraphQLInt(value) ? Math.max(0, value) : DEFAULT_LIST;
}

const isGraphQLInt = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= -(2 ** 31) && (value as number) < 2 ** 31;

/**
 * Connections whose page without `first` is the whole list (each bounded by one run, one suite or
 * the tenant's catalogs). Asking for part of one must not cost more than asking for all of it, so
 * their page counts at most a default page.
 */
export const WHOLE_LISTS: ReadonlySet<string> = new Set(["Run.results", "Run.matrix", "Run.fixItems", "Evaluation.scenarios", "Query.catalogs"]);

/**
 * What a whole list costs besides its page, whatever `first` asks for: it answers every item (a
 * run's 3,000 results, a suite's 2,000 prompts of up to 65,535 characters), so aliases cannot
 * repeat one. Counted as a default page, 100 aliased `scenarios` of a 2,000-scenario suite
 * answered 169 MB and ~49 aliased `results` of a 3,000-result run fitted under the limit.
 */
const WHOLE_LIST_COST = 500;

/** The page a connection field is counted at. */
function pageSizeOf(selection: FieldNode, variables: Record<string, unknown>, wholeList: boolean): number {
  const size = listSize(selection, variables);
  return wholeList ? Math.min(size, DEFAULT_LIST) : size;
}

function isList(type: GraphQLType): boolean {
  return isListType(getNullableType(type));
}

const isConnection = (type: GraphQLType): boolean => getNamedType(type).name.endsWith("Connection");

/**
 * `page` is the page size of the connection `set` is the selection of (null elsewhere): its list
 * (`edges`) is that many long. The connection field itself counts once, so a page is counted
 * once: multiplied at both, a default page of runs cost 20 x 20 and `first: 100` was refused.
 */
function costOf(set: SelectionSetNode | undefined, parent: GraphQLType | null, walk: Walk, variables: Record<string, unknown>, page: number | null = null): number {
  if (!set || !parent) return 0;
  const named = getNamedType(parent);
  const fields = isObjectType(named) || isInterfaceType(named) ? named.getFields() : {};
  let total = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      const field = fields[selection.name.value] as GraphQLField<unknown, unknown> | undefined;
      if (!field) continue;
      const key = `${named.name}.${field.name}`;
      const wholeList = WHOLE_LISTS.has(key);
      const fieldCost = FIELD_COSTS[key] ?? AGGREGATE_FIELD_COSTS[key] ?? (wholeList ? WHOLE_LIST_COST : 1);
      const innerPage = isConnection(field.type) ? pageSizeOf(selection, variables, wholeList) : null;
      const inner = costOf(selection.selectionSet, field.type, walk, variables, innerPage);
      // A connection's list is its page; other lists a default page.
      const factor = isList(field.type) ? (SHORT_LISTS[key] ?? page ?? DEFAULT_LIST) : 1;
      total += fieldCost + factor * inner;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      total += costOf(selection.selectionSet, parent, walk, variables, page);
    } else {
      const name = selection.name.value;
      const key = `${name}\u0000${named.name}\u0000${page ?? ""}`;
      total += throughFragment(walk, walk.costs, key, name, (fragment) => costOf(fragment.selectionSet, parent, walk, variables, page)) ?? 0;
    }
  }
  return total;
}

/**
 * Variables are read from the request when Apollo gives them, and a variable the request leaves
 * out counts at its default (`$n: Int = 100` sent without `n` asked for pages of 100 at the cost
 * of 20); otherwise `first` variables count as a default page.
 */
export function costLimit(maxCost: number, variables: () => Record<string, unknown> = () => ({})) {
  return (context: ValidationContext): ASTVisitor => {
    const walk = walkOf(context);
    const given = variables();
    return {
      OperationDefinition(node: OperationDefinitionNode) {
        const values = { ...variableDefaults(node), ...given };
        const schema = context.getSchema();
        const root = node.operation === "query" ? schema.getQueryType() : node.operation === "mutation" ? schema.getMutationType() : schema.getSubscriptionType();
        let cost: number;
        try {
          cost = costOf(node.selectionSet, root ?? null, walk, values);
        } catch (error) {
          if (!(error instanceof SpreadTooDeep)) throw error;
          context.reportError(spreadTooDeep(node));
          return;
        }
        if (cost > maxCost) {
          context.reportError(new GraphQLError(`query costs ${cost}; the limit is ${maxCost}`, { nodes: [node], extensions: { code: "VALIDATION" } }));
        }
      },
    };
  };
}

/** The operation's variables that declare a literal default, at that default. */
function variableDefaults(operation: OperationDefinitionNode): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  for (const definition of operation.variableDefinitions ?? []) {
    if (definition.defaultValue) defaults[definition.variable.name.value] = valueFromASTUntyped(definition.defaultValue);
  }
  return defaults;
}

/** Root `__type` fields one operation may ask (tools' feature probes alias a handful of them). */
export const MAX_TYPE_PROBES = 20;

/**
 * No alias inside introspection (on the fields of the `__Type`, `__Field`... that `__schema` and
 * `__type` return) and none of `__schema`. The depth and cost limits do not count introspection,
 * so standard tools can read the schema; without aliases each object answers a field at most
 * once, and graphql-js's own MaxIntrospectionDepthRule bounds the nesting. With them, aliased
 * `types` and `fields` spread through fragments grew the answer as the fourth power of the
 * aliases: 1.7 KB of query took the process out of memory. Aliases of the root `__type` (one
 * type each, as clients' feature probes ask them) are allowed, MAX_TYPE_PROBES at most.
 */
export function introspectionWithoutAliases(context: ValidationContext): ASTVisitor {
  let typeProbes = 0;
  return {
    OperationDefinition: {
      enter() {
        typeProbes = 0;
      },
    },
    Field(node: FieldNode) {
      const parent = context.getParentType();
      const name = node.name.value;
      if (name === "__type" && parent === context.getSchema().getQueryType()) {
        typeProbes += 1;
        if (typeProbes === MAX_TYPE_PROBES + 1) {
          context.reportError(new GraphQLError(`at most ${MAX_TYPE_PROBES} __type fields may be asked in one operation`, { nodes: [node], extensions: { code: "VALIDATION" } }));
        }
        return;
      }
      if (!node.alias || !(name === "__schema" || parent?.name.startsWith("__"))) return;
      context.reportError(
        new GraphQLError(`introspection takes no aliases (\`${node.alias.value}: ${name}\`)`, { nodes: [node], extensions: { code: "VALIDATION" } }),
      );
    },
  };
}

/**
 * Lists and objects written into the query's text nest at most `max` levels, the limit JSON
 * variables and bodies have (jsonDepth.ts): an inline literal reaches events and read models as
 * they do.
 */
export function literalDepthLimit(max: number) {
  return (context: ValidationContext): ASTVisitor => {
    let depth = 0;
    let reported = false;
    const enter = (node: ObjectValueNode | ListValueNode) => {
      depth += 1;
      if (depth > max && !reported) {
        reported = true;
        context.reportError(
          new GraphQLError(`a value in the query is nested more than ${max} levels deep; at most ${max} are accepted`, { nodes: [node], extensions: { code: "VALIDATION" } }),
        );
      }
    };
    const leave = () => {
      depth -= 1;
    };
    return { ObjectValue: { enter, leave }, ListValue: { enter, leave } };
  };
}
