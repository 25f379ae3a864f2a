// A Kafka message's value as the job a handler receives. Anything can be written to a topic: a
// message that is not JSON (or is empty) must reach the handler as something it can refuse and
// acknowledge, not throw inside the consumer, where kafkajs would fetch the same offset again
// forever and every job behind it on the partition (with jobs keyed by run, the whole run) would
// wait. The raw bytes are never echoed: they may be anything, of any size.

/** The value delivered for a message that is not a JSON document; `reason` says why, without its bytes. */
export class UndecodableMessage {
  constructor(readonly reason: string) {}
}

export function decodeMessage(value: Buffer | null | undefined): unknown {
  if (value === null || value === undefined || value.length === 0) return new UndecodableMessage("empty message");
  try {
    return JSON.parse(value.toString("utf8")) as unknown;
  } catch {
    return new UndecodableMessage(`not JSON (${value.length} bytes)`);
  }
}
