// Validation rules that refuse a query before it runs: one too deep, or one whose estimated
// cost (every field 1, list fields multiplied by their `first` or a default page) is too high.
import {
  GraphQLError, Kind, getNamedType, getNullableType, isListType, isObjectType, isInterfaceType,
  type ASTVisitor, type FieldNode, type FragmentDefinitionNode, type GraphQLField, type GraphQLType,
  type OperationDefinitionNode, type SelectionSetNode, type ValidationContext,
} from "graphql";

const DEFAULT_LIST = 20;

/**
 * Fields whose answer is a whole run rendered or replayed (a large run's HTML page, Markdown or
 * JSON document, or its every event, is megabytes): each costs this much instead of 1, so aliases
 * cannot repeat one in a query (4,000 `html` aliases of a 6-result run answered 128 MB).
 */
export const FIELD_COSTS: Readonly<Record<string, number>> = {
  "RunReport.html": 1000,
  "RunReport.markdown": 1000,
  "RunReport.json": 1000,
  "Query.runAudit": 500,
};

function fragmentsOf(context: ValidationContext): Map<string, FragmentDefinitionNode> {
  const map = new Map<string, FragmentDefinitionNode>();
  for (const def of context.getDocument().definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) map.set(def.name.value, def);
  return map;
}

function depthOf(set: SelectionSetNode | undefined, fragments: Map<string, FragmentDefinitionNode>, seen: Set<string>): number {
  if (!set) return 0;
  let deepest = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value.startsWith("__")) continue;
      deepest = Math.max(deepest, (selection.selectionSet ? 1 : 0) + depthOf(selection.selectionSet, fragments, seen));
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      deepest = Math.max(deepest, depthOf(selection.selectionSet, fragments, seen));
    } else {
      const name = selection.name.value;
      const fragment = fragments.get(name);
      if (!fragment || seen.has(name)) continue;
      deepest = Math.max(deepest, depthOf(fragment.selectionSet, fragments, new Set([...seen, name])));
    }
  }
  return deepest;
}

export function depthLimit(maxDepth: number) {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(node: OperationDefinitionNode) {
      const depth = depthOf(node.selectionSet, fragmentsOf(context), new Set());
      if (depth > maxDepth) {
        context.reportError(
          new GraphQLError(`query is nested ${depth} levels deep; the limit is ${maxDepth}`, { nodes: [node], extensions: { code: "VALIDATION" } }),
        );
      }
    },
  });
}

function listSize(field: FieldNode, variables: Record<string, unknown>): number {
  const first = field.arguments?.find((a) => a.name.value === "first");
  if (!first) return DEFAULT_LIST;
  if (first.value.kind === Kind.INT) return Number(first.value.value);
  if (first.value.kind === Kind.VARIABLE) {
    const value = variables[first.value.name.value];
    return typeof value === "number" ? value : DEFAULT_LIST;
  }
  return DEFAULT_LIST;
}

function isList(type: GraphQLType): boolean {
  return isListType(getNullableType(type));
}

function costOf(
  set: SelectionSetNode | undefined,
  parent: GraphQLType | null,
  fragments: Map<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
  seen: Set<string>,
): number {
  if (!set || !parent) return 0;
  const named = getNamedType(parent);
  const fields = isObjectType(named) || isInterfaceType(named) ? named.getFields() : {};
  let total = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      const field = fields[selection.name.value] as GraphQLField<unknown, unknown> | undefined;
      if (!field) continue;
      const inner = costOf(selection.selectionSet, field.type, fragments, variables, seen);
      // Connections multiply by their page size at `edges`; plain lists by a default page.
      const isConnection = getNamedType(field.type).name.endsWith("Connection");
      const factor = isConnection ? listSize(selection, variables) : isList(field.type) ? DEFAULT_LIST : 1;
      total += (FIELD_COSTS[`${named.name}.${field.name}`] ?? 1) + factor * inner;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      total += costOf(selection.selectionSet, parent, fragments, variables, seen);
    } else {
      const fragment = fragments.get(selection.name.value);
      if (fragment && !seen.has(selection.name.value)) {
        total += costOf(fragment.selectionSet, parent, fragments, variables, new Set([...seen, selection.name.value]));
      }
    }
  }
  return total;
}

/** Variables are read from the request when Apollo gives them; otherwise `first` variables count as a default page. */
export function costLimit(maxCost: number, variables: () => Record<string, unknown> = () => ({})) {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(node: OperationDefinitionNode) {
      const schema = context.getSchema();
      const root = node.operation === "query" ? schema.getQueryType() : node.operation === "mutation" ? schema.getMutationType() : schema.getSubscriptionType();
      const cost = costOf(node.selectionSet, root ?? null, fragmentsOf(context), variables(), new Set());
      if (cost > maxCost) {
        context.reportError(new GraphQLError(`query costs ${cost}; the limit is ${maxCost}`, { nodes: [node], extensions: { code: "VALIDATION" } }));
      }
    },
  });
}
