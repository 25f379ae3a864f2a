// A database named in a log line by where it is, never by its credentials: `host:port/database`.

/** `postgres://user:secret@db.internal:5432/verdict?sslmode=require` -> `db.internal:5432/verdict`. */
export function databaseLabel(connectionString: string | undefined): string {
  if (!connectionString) return "(no URL)";
  try {
    const url = new URL(connectionString);
    const database = decodeURIComponent(url.pathname.replace(/^\//, ""));
    return `${url.hostname || "localhost"}:${url.port || "5432"}${database ? `/${database}` : ""}`;
  } catch {
    return "(URL not shown: it does not parse)";
  }
}
