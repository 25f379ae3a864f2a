// Bytes as the API's refusals show them (1 MB = 1,000,000 bytes): a request's answer budget and
// the process's answer pool name their figures alike.

export function shownBytes(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  if (bytes >= 1_000) return `${(bytes / 1_000).toFixed(1)} KB`;
  return `${bytes} bytes`;
}
