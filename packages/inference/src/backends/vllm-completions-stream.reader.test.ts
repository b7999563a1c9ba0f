import { describe, expect, it } from "vitest";
import { VllmStreamReader } from "./vllm-completions-stream.reader";

const chunk = (choice: Record<string, unknown>) =>
  JSON.stringify({ id: "cmpl-1", object: "text_completion", choices: [{ index: 0, ...choice }] });

describe("VllmStreamReader", () => {
  it("reads token chunks, the finish reason and the cached tokens of the usage chunk", () => {
    const reader = new VllmStreamReader("b1");
    expect(reader.push(chunk({ token_ids: [5, 6], logprobs: { token_logprobs: [-0.1, -0.2] } }))).toEqual({
      ids: [5, 6],
      logprobs: [-0.1, -0.2],
    });
    reader.push(chunk({ token_ids: [7], logprobs: { token_logprobs: [-0.3] }, finish_reason: "stop" }));
    reader.push(JSON.stringify({ choices: [], usage: { prompt_tokens_details: { cached_tokens: 16 } } }));
    expect(reader.finish({ isInterrupted: false })).toEqual({
      responseIds: [5, 6, 7],
      logprobs: [-0.1, -0.2, -0.3],
      finishReason: "stop",
      cachedPromptTokens: 16,
    });
  });

  it("reads ids written as `token_id:<n>` when `token_ids` is absent", () => {
    const reader = new VllmStreamReader("b1");
    const added = reader.push(
      chunk({ logprobs: { tokens: ["token_id:9", "token_id:10"], token_logprobs: [-1, -2] } }),
    );
    expect(added).toEqual({ ids: [9, 10], logprobs: [-1, -2] });
  });

  it("names the chunk and field of a malformed chunk", () => {
    const failureOf = (data: string) => {
      const reader = new VllmStreamReader("b1");
      reader.push(chunk({ token_ids: [1], logprobs: { token_logprobs: [-1] } }));
      try {
        reader.push(data);
      } catch (error) {
        return (error as Error).message;
      }
      return "no failure";
    };
    expect(failureOf("{")).toContain("chunk 1 is not JSON");
    expect(failureOf(chunk({ token_ids: [1, 2], logprobs: { token_logprobs: [-1] } }))).toContain(
      "chunk 1.choices[0].logprobs.token_logprobs has 1 entries for 2 tokens",
    );
    expect(failureOf(chunk({ token_ids: [1, -2], logprobs: { token_logprobs: [-1, -1] } }))).toContain(
      "chunk 1.choices[0].token_ids[1] is not a token id",
    );
    expect(failureOf(chunk({ token_ids: [3] }))).toContain("chunk 1.choices[0].logprobs is missing");
    expect(failureOf(JSON.stringify({ error: { message: "overloaded" } }))).toContain(
      "chunk 1 reports an error: overloaded",
    );
  });

  it("fails a stream that ended without a finish reason unless it was interrupted", () => {
    const reader = new VllmStreamReader("b1");
    reader.push(chunk({ token_ids: [1], logprobs: { token_logprobs: [-1] } }));
    expect(() => reader.finish({ isInterrupted: false })).toThrow(/ended without a finish_reason/);
    expect(reader.finish({ isInterrupted: true })).toMatchObject({ responseIds: [1], isInterrupted: true });
  });
});
