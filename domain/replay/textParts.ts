// The text of a list of content parts, as the converters read message content and tool output:
// its `text` parts joined (and an OpenAI refusal, which is the model's answer too), or null when
// it has none.
import { isPlainObject } from "../support/blank.js";

export function textOfParts(parts: readonly unknown[]): string | null {
  const texts: string[] = [];
  for (const part of parts) {
    if (!isPlainObject(part)) continue;
    if (part.type === "text" && typeof part.text === "string") texts.push(part.text);
    else if (part.type === "refusal" && typeof part.refusal === "string") texts.push(part.refusal);
  }
  return texts.length > 0 ? texts.join("") : null;
}
