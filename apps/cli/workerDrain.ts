// The worker's drain when `verdict start` stops: stopping it waits for the jobs in flight, and a
// second Ctrl-C gives that wait up (stopSignals.ts). The jobs are not acknowledged then, and the
// start closes its databases without them (PGlite's close waits for a transaction in progress, so
// none is cut mid-write) and exits, which ends them; their pairs, not recorded, are dispatched
// again by the next start. The jobs are counted on the bus the worker consumes, so the line can
// say how many were given up.
import type { DeliveredJob, JobBus } from "@verdict/domain";
import type { Io } from "./io.js";

interface CountedBus {
  bus: JobBus;
  /** Jobs handed to the worker's handlers and not yet settled. */
  inFlight(): number;
}

/** `bus`, counting the jobs its consumers' handlers hold. */
export function countJobsInFlight(bus: JobBus): CountedBus {
  let inFlight = 0;
  const counted = async (handler: (job: DeliveredJob) => Promise<void>, job: DeliveredJob) => {
    inFlight += 1;
    try {
      await handler(job);
    } finally {
      inFlight -= 1;
    }
  };
  return {
    bus: {
      publish: (topic, jobs) => bus.publish(topic, jobs),
      consume: (topic, handler, options) => bus.consume(topic, (job) => counted(handler, job), options),
      close: () => bus.close(),
    },
    inFlight: () => inFlight,
  };
}

/** The worker's `drain`, unless `hurried` comes first: then one line says what is given up. */
export async function drainUnlessHurried(drain: Promise<void>, hurried: Promise<string>, inFlight: () => number, io: Io): Promise<void> {
  const gaveUp = await Promise.race([drain.then(() => false), hurried.then((signal) => signal)]);
  if (gaveUp === false) return;
  const jobs = inFlight();
  io.out(`second ${gaveUp === "SIGINT" ? "Ctrl-C" : gaveUp}: not waiting for ${jobs} job${jobs === 1 ? "" : "s"} in flight; their pairs run again at the next start`);
}
