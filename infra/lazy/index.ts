// Client libraries for the services of a distributed deployment (PostgreSQL, Kafka, EventStoreDB,
// MikroORM) are loaded when an adapter that needs them is created, not when its module is
// imported. The embedded default imports every app's public surface but creates none of these
// adapters, and loading them anyway cost it ~45 MB of resident memory.
import { createRequire } from "node:module";
import type * as Pg from "pg";
import type * as KafkaJs from "kafkajs";

const require = createRequire(import.meta.url);

/** `pg` (node-postgres), as `import pg from "pg"` gives it. */
export function loadPg(): typeof Pg {
  return require("pg") as typeof Pg;
}

export function loadKafkajs(): typeof KafkaJs {
  return require("kafkajs") as typeof KafkaJs;
}
