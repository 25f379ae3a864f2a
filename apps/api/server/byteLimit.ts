// Sizes as the API's limits give them ("2mb"), in bytes: the HTTP body limit also bounds a
// graphql-ws message (graphqlWsServer.ts) and the CLI's envelope files (apps/cli/envelopeFile.ts).

/** "2mb", "64kb", "512b" or a bare number of bytes, as express's body limit reads them (1 kb = 1024 b). */
export function byteLimit(limit: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(limit);
  if (!match) throw new Error(`limits.bodyLimit must be a size such as "2mb" (got ${JSON.stringify(limit)})`);
  const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(match[2] ?? "b").toLowerCase() as "b"];
  return Math.floor(Number(match[1]) * unit);
}
