import { failureOf } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { buildJudgeChatBody, parseJudgeChatBody } from "./judge-chat.codec";

const backend = { id: "judge-0", modelName: "judge-model" };

describe("judge chat codec", () => {
  it("asks for one whole chat completion with the named model", () => {
    const body = buildJudgeChatBody(
      { messages: [{ role: "user", content: "grade" }], maxTokens: 64, temperature: 0, timeoutMs: 1_000 },
      "judge-model",
    );
    expect(body).toEqual({
      model: "judge-model",
      messages: [{ role: "user", content: "grade" }],
      max_tokens: 64,
      temperature: 0,
      stream: false,
    });
  });

  it("reads the first choice's content and the answering model", () => {
    const reply = parseJudgeChatBody(
      { model: "served-name", choices: [{ message: { role: "assistant", content: "SCORE: 3" } }] },
      backend,
    );
    expect(reply).toEqual({ text: "SCORE: 3", model: "served-name", backendId: "judge-0" });
    const unnamed = parseJudgeChatBody({ choices: [{ message: { content: "x" } }] }, backend);
    expect(unnamed.model).toBe("judge-model");
  });

  it("fails as a bad response (inference) when there is no content", () => {
    for (const body of [null, {}, { choices: [] }, { choices: [{ message: { content: null } }] }]) {
      let caught: unknown;
      try {
        parseJudgeChatBody(body, backend);
      } catch (error) {
        caught = error;
      }
      const failure = failureOf(caught);
      expect(failure?.kind).toBe("inference");
      expect(failure?.cause).toBe("infrastructure");
      expect((failure as { inference?: { reason: string } }).inference?.reason).toBe("bad-response");
    }
  });
});
