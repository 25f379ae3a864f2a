// VERDICT_TOPIC_PREFIX, read the same way by every process that takes it (`verdict start`, the
// worker): it prefixes Kafka topic names, so it may hold only what they may. The broker's own
// refusal came late, after the databases were opened, and said only "Topic creation errors".
import { SettingError } from "../settings/index.js";

/** Kafka topic names are letters, digits, ".", "_" and "-" (at most 249): the prefix leaves room for ours. */
const TOPIC_PREFIX = /^[A-Za-z0-9._-]{0,200}$/;

/** The prefix `env` sets (trimmed; unset: none); one Kafka would refuse is a SettingError naming the variable and the rule. */
export function topicPrefixFromEnv(env: NodeJS.ProcessEnv): string {
  const prefix = env.VERDICT_TOPIC_PREFIX?.trim() ?? "";
  if (!TOPIC_PREFIX.test(prefix)) {
    throw new SettingError(
      "VERDICT_TOPIC_PREFIX",
      `VERDICT_TOPIC_PREFIX must be at most 200 letters, digits, ".", "_" or "-" (Kafka topic names) (got ${JSON.stringify(prefix)})`,
    );
  }
  return prefix;
}
