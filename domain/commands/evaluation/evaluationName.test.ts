import { describe, expect, it } from "vitest";
import { evaluationNameAggregate } from "./evaluationName.js";
import { given } from "../testing/givenWhenThen.js";

const reserve = (evaluationId: string) => ({ type: "ReserveEvaluationName", evaluation_id: evaluationId, tenant: "acme", agent: "SupportAgent", name: "Support" });
const reservedBy = (evaluationId: string) => ({
  type: "EvaluationNameReserved" as const,
  data: { evaluation_id: evaluationId, tenant: "acme", agent: "SupportAgent", name: "Support", reserved_at: "2026-11-30T12:00:00.000Z" },
});

describe("ReserveEvaluationName", () => {
  it("given nothing, then EvaluationNameReserved for the evaluation", () => {
    expect(given(evaluationNameAggregate, []).when(reserve("e1"))).toEqual([reservedBy("e1")]);
  });

  it("given the name reserved by the same evaluation (a retried create), then nothing and no conflict", () => {
    expect(given(evaluationNameAggregate, [reservedBy("e1")]).when(reserve("e1"))).toEqual([]);
  });

  it("given the name reserved by another evaluation, then a conflict naming the field and the rule", () => {
    expect(() => given(evaluationNameAggregate, [reservedBy("e1")]).when(reserve("e2"))).toThrow(
      expect.objectContaining({ code: "conflict", field: "name", message: 'name: an evaluation named "Support" already exists for agent "SupportAgent"' }),
    );
  });
});
