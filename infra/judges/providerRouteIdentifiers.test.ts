// A judge model recorded before model names were checked (support/identifierText) still routes
// to an answer: the run fails saying why, where ModelSpec.parse's refusal was thrown out of it.
import { describe, expect, it } from "vitest";
import { routeJudge } from "./providerRoute.js";

describe("routeJudge with a recorded judge model holding an invisible character", () => {
  it("fails the run naming the character, and routes a clean name as before", () => {
    const endpoints = { openai: { apiKey: "k", baseURL: "http://127.0.0.1:1/v1" } };
    expect(routeJudge("gpt\u200b-5", endpoints)).toEqual({
      reason: expect.stringMatching(/^the judge model cannot be used: model name "gpt\\u\{200B\}-5" must not contain U\+200B ZERO WIDTH SPACE \(at character 4\)/),
      failsRun: true,
    });
    expect(routeJudge("gpt-5", endpoints)).toEqual({ provider: "openai", model: "gpt-5" });
  });
});
