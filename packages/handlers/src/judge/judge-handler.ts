import { randomBytes } from "node:crypto";
import { failureOf, stageFailure } from "@raas/shared";
import { z } from "zod";
import { defineAgentHandler } from "../base/define-agent-handler";
import { submitToolSpec } from "../base/submit-tool";
import type { JudgeModel } from "./judge-model.types";
import { type TJudgePayload, ZJudgePayload } from "./judge-payload.schema";
import { buildJudgePrompt } from "./judge-prompt";
import { decideJudgeVerdict, type JudgeCallOutcome } from "./judge-verdict";

const ZJudgeReport = z
  .object({
    type: z.literal("judge").describe("The grader: a judge model."),
    status: z
      .enum(["scored", "unparseable", "out_of_range", "call_failed", "timed_out"])
      .describe(
        "How grading ended: `scored`; on a failed job (infrastructure, no reward) `unparseable` (no `SCORE:` last line), `out_of_range`, `call_failed` (no judge backend answered) or `timed_out`.",
      ),
    crashed: z.boolean().describe("The judge gave no grade (every status but `scored`): counted per step."),
    model: z.string().nullable().describe("The judge model that answered; null when none did."),
    backendId: z.string().nullable().describe("The judge backend that answered (or failed last)."),
    prompt: z
      .array(
        z.object({
          role: z
            .enum(["system", "user"])
            .describe("`system`: the grading instructions; `user`: the material."),
          content: z.string().describe("The message's text."),
        }),
      )
      .describe("The judge's chat, the policy's answer inside its delimiters."),
    reply: z.string().nullable().describe("The judge's reply; null when none came."),
    score: z.number().nullable().describe("The score the reply's last line gave, on the rubric's scale."),
    scale: z
      .object({
        min: z.number().describe("The lowest score (reward 0)."),
        max: z.number().describe("The highest score (reward 1)."),
      })
      .describe("The rubric's score range."),
    error: z.string().nullable().describe("Why there is no grade; null when scored."),
    durationMs: z.number().describe("How long the judge call took, in ms."),
  })
  .describe("The judge's grade: prompt, reply, parsed score and model.");

const ZJudgeResult = z.object({
  environment: z.string().describe("The environment's name."),
  answerSource: z
    .enum(["submission", "final_message"])
    .describe("Where the graded answer came from: the submit call's answer, else the last message."),
  answer: z.string().describe("The policy's answer the judge graded."),
  verifier: ZJudgeReport,
});

const DEFAULT_SYSTEM_PROMPT =
  "Answer the task as well as you can. Give your final answer in your last message (or call submit with it).";

/** Random delimiters' name; one the answer does not contain (a collision would be a 1-in-2^96 guess). */
function nonceFor(answer: string): string {
  for (;;) {
    const nonce = randomBytes(12).toString("hex");
    if (!answer.includes(nonce)) return nonce;
  }
}

async function callJudge(
  judge: JudgeModel | null,
  request: Parameters<JudgeModel["complete"]>[0],
): Promise<JudgeCallOutcome> {
  const startedAt = performance.now();
  const elapsed = () => performance.now() - startedAt;
  if (judge === null) {
    const message = "no judge backend is configured (RAAS_JUDGE_BACKENDS)";
    return { type: "error", isTimeout: false, message, backendId: null, durationMs: 0 };
  }
  try {
    const reply = await judge.complete(request);
    return { type: "reply", ...reply, durationMs: elapsed() };
  } catch (error) {
    // A cancelled or timed-out stage ends as the engine says, not as the judge's failure.
    if (request.signal?.aborted) throw error;
    const detail = (failureOf(error) as { inference?: { reason: string; backendId: string | null } } | null)
      ?.inference;
    return {
      type: "error",
      isTimeout: detail?.reason === "deadline",
      message: error instanceof Error ? error.message : String(error),
      backendId: detail?.backendId ?? null,
      durationMs: elapsed(),
    };
  }
}

/**
 * LLM judges: an open-ended task to the built-in agent loop (no sandbox tools; submit), then the
 * policy's answer graded against the environment's rubric by a judge model served from the
 * backends the deployment names for judging (`judge`, never the policy's). The judge's last line
 * `SCORE: <n>` on the rubric's scale gives the reward, mapped onto [0, 1]; a judge that fails or
 * gives no such line is infrastructure (`eval` / `timeout`, no reward). See `README.md` here.
 */
export function createJudgeHandlerFactory(judge: JudgeModel | null) {
  return defineAgentHandler<TJudgePayload>({
    kind: "judge",
    description: "LLM judges: open-ended tasks graded against a rubric by a judge model on its own backends.",
    payloadSchema: ZJudgePayload,
    resultSchema: ZJudgeResult,
    tools: [],
    submitTool: submitToolSpec("Submit your final answer and end the task.", "Your final answer."),
    limits: { maxTurns: 4 },
    systemPrompt: (payload) => payload.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
    userMessage: (payload) => `Task id: ${payload.taskId}\n\n${payload.prompt}`,
    async evaluate({ payload, run, signal }) {
      const submitted = run.submission?.arguments.answer;
      const source = typeof submitted === "string" ? "submission" : "final_message";
      const answer = typeof submitted === "string" ? submitted : run.finalContent;
      const { judge: settings } = payload;
      const prompt = buildJudgePrompt({
        taskId: payload.taskId,
        task: payload.prompt,
        rubric: settings.rubric,
        reference: settings.reference,
        answer,
        scale: settings.scale,
        nonce: nonceFor(answer),
      });
      const call = await callJudge(judge, {
        messages: prompt,
        maxTokens: settings.maxTokens,
        temperature: settings.temperature,
        timeoutMs: settings.timeoutMs,
        signal,
      });
      const verdict = decideJudgeVerdict(call, { prompt, scale: settings.scale });
      const result = {
        environment: payload.environment,
        answerSource: source,
        answer,
        verifier: verdict.report,
      };
      if (verdict.type === "failure") throw stageFailure(verdict.kind, verdict.message, { result });
      return { reward: verdict.reward, result };
    },
  });
}
