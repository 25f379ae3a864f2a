// A plan's refusal answers a GraphQL request with its HTTP status (402, 429, 403), as the
// reference's REST answers do, not 200: a client or proxy that reads only the status still
// learns it was refused, and why. formatError (errors.ts) still words the error and its
// extensions (code, and the host fields: error, upgrade_required, kind, limit, used, requested).
// Only when the operation failed as a whole: no root field it asked for succeeded. One where
// another root field succeeded (a: startRun admitted, b: startRun refused, in one mutation)
// answers 200 with the refusal in `errors`: a client reading only the status must not take run a
// for not created (it was, and metered). startRun and importReport are nullable, so such a
// mutation's `data` holds a's payload beside b: null (were they non-null, b's null would reach the
// root and null `data`, hiding run a's id). So the status is set here, once the response is known,
// not by the resolver (Apollo applies a resolver error's extensions.http to the whole response).
import type { ApolloServerPlugin } from "@apollo/server";
import { Kind, type DocumentNode, type OperationDefinitionNode, type SelectionSetNode } from "graphql";
import { classify, HTTP_STATUS, type ApiErrorCode } from "./errors.js";

const PLAN_CODES: ReadonlySet<ApiErrorCode> = new Set(["PLAN_LIMIT_REACHED", "REPORT_LIMIT_REACHED", "EXECUTION_DISABLED"]);

/** The response keys (alias or name) of an operation's root fields, through its fragments; __typename aside. */
function rootKeys(document: DocumentNode, operation: OperationDefinitionNode): Set<string> {
  const keys = new Set<string>();
  const seen = new Set<string>();
  const visit = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value !== "__typename") keys.add(selection.alias?.value ?? selection.name.value);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        visit(selection.selectionSet);
      } else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = document.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === selection.name.value);
        if (fragment?.kind === Kind.FRAGMENT_DEFINITION) visit(fragment.selectionSet);
      }
    }
  };
  visit(operation.selectionSet);
  return keys;
}

/**
 * Whether no root field the operation asked for succeeded. A root field succeeded when `data`
 * holds it. A mutation's root fields run one after another and a non-null one that fails (most
 * mutations; not startRun or importReport, which answer null) stops the rest and nulls `data`:
 * then the fields before it that have no error succeeded, and those after it never ran.
 */
function failedAsAWhole(
  document: DocumentNode | undefined,
  operation: OperationDefinitionNode | undefined,
  data: Record<string, unknown> | null | undefined,
  errors: readonly { path?: readonly (string | number)[] }[],
): boolean {
  if (!document || !operation) return true;
  const keys = [...rootKeys(document, operation)];
  if (data) return keys.every((key) => data[key] == null);
  const failed = new Set(errors.map((e) => e.path?.[0]));
  if (operation.operation !== "mutation") return keys.every((key) => failed.has(key));
  const stoppedAt = keys.findLastIndex((key) => failed.has(key));
  return stoppedAt < 0 ? keys.length === 0 : keys.slice(0, stoppedAt + 1).every((key) => failed.has(key));
}

/** Answers a request that a plan refused as a whole with the refusal's HTTP status. */
export function planStatusPlugin<T extends object>(): ApolloServerPlugin<T> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, errors, document, operation }) {
          if (response.body.kind !== "single" || !errors?.length) return;
          if (response.http.status !== undefined && response.http.status !== 200) return;
          if (!failedAsAWhole(document, operation, response.body.singleResult.data, errors)) return;
          for (const error of errors) {
            const known = classify(error.originalError ?? error);
            if (known && PLAN_CODES.has(known.code)) {
              response.http.status = HTTP_STATUS[known.code];
              return;
            }
          }
        },
      };
    },
  };
}
