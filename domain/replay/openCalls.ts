// The tool calls of a conversation still waiting for their results, as both converters match
// results to calls. A result goes to the most recent turn that has an open call with its id, and
// within that turn to the first such call: the "most recent still-open call" of reference-core
// §15 when ids are unique, and parallel calls sharing an id (or having none) answered in order.
import type { ToolCall } from "./toolCall.js";

interface OpenCall {
  id: string;
  call: ToolCall;
  turn: number;
}

export class OpenCalls {
  readonly #open: OpenCall[] = [];

  add(id: string, call: ToolCall, turn: number): void {
    this.#open.push({ id, call, turn });
  }

  /**
   * Closes the call the result answers, marking it failed with `detail` when the result reports
   * an error (a call already failed, an invalid one, keeps its first detail). A result for no
   * call we saw (one trimmed from the history) marks nothing.
   */
  settle(id: string, detail: string | null): void {
    const latest = this.#open.findLast((entry) => entry.id === id);
    if (latest === undefined) return;
    const index = this.#open.findIndex((entry) => entry.id === id && entry.turn === latest.turn);
    const [{ call }] = this.#open.splice(index, 1);
    if (detail !== null && call.error === false) Object.assign(call, { error: true, detail });
  }
}

/** A call's id as a message gives it: text, or "" for none (a result without one answers a call without one). */
export function callId(value: unknown): string {
  return typeof value === "string" ? value : "";
}
