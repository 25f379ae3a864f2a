// A subscription that both its caller's signal and its store's close end. The two are linked
// for as long as the subscription is iterated and unlinked when it ends (linkedSignal.ts): with
// `AbortSignal.any` every subscription ever opened stayed on the store's closing signal.
// Linked at the first read, as the subscription's own generator starts there: one never read
// holds nothing.
import { linkSignals } from "../abort/linkedSignal.js";
import type { RecordedEvent, SubscribeAllOptions } from "./port.js";

export async function* linkedSubscription(
  options: SubscribeAllOptions,
  closing: AbortSignal,
  follow: (options: SubscribeAllOptions) => AsyncIterable<RecordedEvent>,
): AsyncGenerator<RecordedEvent> {
  const link = linkSignals([options.signal, closing]);
  try {
    yield* follow({ ...options, signal: link.signal });
  } finally {
    link.dispose();
  }
}
