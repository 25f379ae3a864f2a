// A scenario's position as the read models hold it. Their column is an int4 and GraphQL's Int is
// 32 bits, but a version before the limit (POSITION_LIMIT) recorded any integer: such an event
// was refused by the read database and its evaluation's suite (or its run's results) went
// missing. A position only orders a suite, so one past the column's range is held at its end
// (ties then go by key, as the queries order them); the event and the report keep the exact value.
import { POSITION_LIMIT } from "@verdict/domain";

export function storablePosition(position: number): number {
  return Math.min(POSITION_LIMIT, Math.max(-POSITION_LIMIT - 1, position));
}
