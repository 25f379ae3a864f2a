// One query a request for the releases of every agent it asks about: the first agent's request
// opens a batch, every agent asked for with the same page size before the next turn of the event
// loop joins it, and the batch is read with one statement (ReadModels.agentReleasePages). A page
// of 100 agents asking `releases { ... }` reads once, not 100 times. A page after a cursor names
// one agent's releases, so it is read on its own.
import type { AgentRelease, Connection, PageArgs } from "@verdict/projector";
import type { ApiContext } from "./context.js";

interface Batch {
  agents: Set<string>;
  pages: Promise<Map<string, Connection<AgentRelease>>>;
}

/** The batches being gathered, per request (keyed by its context, so they go with the request) and page size. */
const gathering = new WeakMap<ApiContext, Map<number | undefined, Batch>>();

const empty = (): Connection<AgentRelease> => ({ edges: [], pageInfo: { hasNextPage: false, endCursor: null }, totalCount: 0 });

/** A page of the agent's releases, newest first, read with the request's other agents' pages of the same size. */
export async function agentReleasePage(context: ApiContext, agent: string, args: PageArgs): Promise<Connection<AgentRelease>> {
  const tenant = context.principal.tenant;
  if (args.after) return (await context.deps.readModels.agentReleasePages(tenant, [agent], args)).get(agent) ?? empty();
  let batches = gathering.get(context);
  if (!batches) gathering.set(context, (batches = new Map()));
  let batch = batches.get(args.first);
  if (!batch) {
    const agents = new Set<string>();
    const size = args.first;
    const pages = new Promise<Map<string, Connection<AgentRelease>>>((resolve, reject) => {
      // After every resolver of this turn has asked (graphql-js resolves a list's items in one go).
      setImmediate(() => {
        batches.delete(size);
        context.deps.readModels.agentReleasePages(tenant, [...agents], { first: size }).then(resolve, reject);
      });
    });
    batch = { agents, pages };
    batches.set(size, batch);
  }
  batch.agents.add(agent);
  return (await batch.pages).get(agent) ?? empty();
}
