// How a process says that a dependency (the Kafka broker, the database) stopped answering and
// when it answers again: one line when it goes, the same line at most every `everyMs` (30 s)
// while it stays gone with the count of repeats not shown, and one line when it is back. The
// clients underneath (kafkajs, knex) retry on their own and would otherwise print a line, often
// with a stack, per retry: ~10 MB an hour per worker while the database was refused.
export { Outages, RepeatLimiter, elapsed, type LineLog, type OutageOptions } from "./outages.js";
