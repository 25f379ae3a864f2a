// The judge tests' fake: a Judge whose completion records every request and answers scripted
// replies in turn (an Error is thrown as the provider's failure).
import { Judge, type JudgeReply, type JudgeRequest } from "./judge.js";

export function fakeJudge(...replies: (JudgeReply | Error)[]) {
  const requests: JudgeRequest[] = [];
  const judge = new Judge({
    label: "judge-model",
    complete: async (request) => {
      requests.push(request);
      const reply = replies.shift();
      if (reply instanceof Error) throw reply;
      return reply as JudgeReply;
    },
  });
  return { judge, requests };
}
