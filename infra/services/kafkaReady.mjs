// Readiness probe for infra/services/kafka.sh: succeeds only when a real admin call
// (list topics) answers, which a bare port check would not prove.
// Usage: node kafkaReady.mjs [--timeout-ms N] [--pid P] [--coordinator] [--quiet]
//   --pid: give up early when that process (the broker we just launched) has died.
//   --coordinator: also wait for the group coordinator. A fresh broker creates its offsets topic
//     on the first group lookup; doing it here spares the first tests "group coordinator is not
//     available" retries.
import kafkajs from "kafkajs";

const { Kafka, logLevel } = kafkajs;
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(name);
  return index === -1 ? fallback : args[index + 1];
};
const timeoutMs = Number(option("--timeout-ms", "0"));
const pid = Number(option("--pid", "0"));
const quiet = args.includes("--quiet");
const coordinator = args.includes("--coordinator");
const brokers = (process.env.KAFKA_BROKERS ?? "127.0.0.1:9092")
  .split(",")
  .map((broker) => broker.trim())
  .filter(Boolean);

const kafka = new Kafka({
  clientId: "verdict-kafka-ready",
  brokers,
  connectionTimeout: 1_000,
  requestTimeout: 3_000,
  retry: { retries: 0 },
  logLevel: logLevel.NOTHING,
});

function alive(processId) {
  try {
    process.kill(processId, 0);
    return true;
  } catch {
    return false;
  }
}

async function probe() {
  const admin = kafka.admin();
  try {
    await admin.connect();
    const topics = await admin.listTopics();
    if (coordinator) await admin.describeGroups(["verdict-kafka-ready"]);
    return topics;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

const deadline = Date.now() + timeoutMs;
let lastError;
for (;;) {
  try {
    const topics = await probe();
    if (!quiet) console.log(`kafka: admin call answered at ${brokers.join(",")} (${topics.length} topics)`);
    process.exit(0);
  } catch (error) {
    lastError = error;
  }
  if (pid && !alive(pid)) {
    if (!quiet) console.error(`kafka: broker process ${pid} exited before answering`);
    process.exit(2);
  }
  if (Date.now() >= deadline) break;
  await new Promise((resolve) => setTimeout(resolve, 500));
}
if (!quiet) console.error(`kafka: no admin answer from ${brokers.join(",")}: ${lastError?.message ?? lastError}`);
process.exit(1);
