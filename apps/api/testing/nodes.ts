// The nodes of a GraphQL connection as answered (`{ edges: [{ node }] }`), in order.
export function nodes<T = any>(connection: { edges: { node: T }[] }): T[] {
  return connection.edges.map((edge) => edge.node);
}
