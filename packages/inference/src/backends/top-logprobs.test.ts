import { describe, expect, it } from "vitest";
import { isInferenceFailure } from "../inference-failure";
import { sglangGenerateCodec } from "./sglang-generate.codec";
import { vllmCompletionsCodec } from "./vllm-completions.codec";
import { VllmStreamReader } from "./vllm-completions-stream.reader";

const asked = { promptIds: [1, 2], sampling: { maxTokens: 8, topLogprobs: 2 } };
const notAsked = { promptIds: [1, 2], sampling: { maxTokens: 8 } };

// vLLM /v1/completions with logprobs: 2, return_tokens_as_token_ids: one object per token; the
// sampled token is added when outside the top 2 (second position: 3 entries).
const vllmBody = {
  choices: [
    {
      token_ids: [17, 5],
      finish_reason: "stop",
      logprobs: {
        tokens: ["token_id:17", "token_id:5"],
        token_logprobs: [-0.1, -3.5],
        top_logprobs: [
          { "token_id:9": -2.4, "token_id:17": -0.1 },
          { "token_id:8": -0.2, "token_id:4": -1.9, "token_id:5": -3.5 },
        ],
      },
    },
  ],
  usage: { prompt_tokens: 2, completion_tokens: 2 },
};

// SGLang /generate with return_logprob and top_logprobs_num: 2: `[logprob, token_id, text]`.
const sglangBody = {
  text: "",
  output_ids: [17, 5],
  meta_info: {
    completion_tokens: 2,
    finish_reason: { type: "stop", matched: 5 },
    output_token_logprobs: [
      [-0.1, 17, null],
      [-0.3, 5, null],
    ],
    output_top_logprobs: [
      [
        [-0.1, 17, null],
        [-2.4, 9, null],
      ],
      [
        [-0.3, 5, null],
        [-1.5, 4, null],
      ],
    ],
  },
};

describe("top-k logprobs", () => {
  it("asks vLLM for logprobs: k and SGLang for top_logprobs_num only when the run does", () => {
    expect(vllmCompletionsCodec.buildRequest(asked, "m")).toMatchObject({ logprobs: 2 });
    expect(vllmCompletionsCodec.buildRequest(notAsked, "m")).toMatchObject({ logprobs: 0 });
    expect(sglangGenerateCodec.buildRequest(asked, "m")).toMatchObject({
      return_logprob: true,
      top_logprobs_num: 2,
    });
    expect(sglangGenerateCodec.buildRequest(notAsked, "m")).not.toHaveProperty("top_logprobs_num");
  });

  it("reads vLLM top_logprobs per sampled token, most likely first", () => {
    const parsed = vllmCompletionsCodec.parseResponse(vllmBody, "b1", asked);
    expect(parsed.topLogprobs).toEqual([
      [
        { tokenId: 17, logprob: -0.1 },
        { tokenId: 9, logprob: -2.4 },
      ],
      [
        { tokenId: 8, logprob: -0.2 },
        { tokenId: 4, logprob: -1.9 },
        { tokenId: 5, logprob: -3.5 },
      ],
    ]);
    expect(vllmCompletionsCodec.parseResponse(vllmBody, "b1", notAsked)).not.toHaveProperty("topLogprobs");
  });

  it("reads vLLM top_logprobs from a stream", () => {
    const reader = new VllmStreamReader("b1", true);
    const whole = vllmBody.choices[0] as (typeof vllmBody.choices)[number];
    const [first, second] = [0, 1].map((i) => ({
      choices: [
        {
          token_ids: [whole.token_ids[i]],
          finish_reason: i === 1 ? "stop" : null,
          logprobs: {
            token_logprobs: [whole.logprobs.token_logprobs[i]],
            top_logprobs: [whole.logprobs.top_logprobs[i]],
          },
        },
      ],
    }));
    reader.push(JSON.stringify(first));
    reader.push(JSON.stringify(second));
    const generation = reader.finish({ isInterrupted: false });
    expect(generation.responseIds).toEqual([17, 5]);
    expect(generation.topLogprobs?.map((alternatives) => alternatives.map((a) => a.tokenId))).toEqual([
      [17, 9],
      [8, 4, 5],
    ]);
  });

  it("reads SGLang meta_info.output_top_logprobs per sampled token", () => {
    const parsed = sglangGenerateCodec.parseResponse(sglangBody, "b1", asked);
    expect(parsed.responseIds).toEqual([17, 5]);
    expect(parsed.topLogprobs).toEqual([
      [
        { tokenId: 17, logprob: -0.1 },
        { tokenId: 9, logprob: -2.4 },
      ],
      [
        { tokenId: 5, logprob: -0.3 },
        { tokenId: 4, logprob: -1.5 },
      ],
    ]);
  });

  it("names the missing field when asked-for top logprobs are absent", () => {
    const { output_top_logprobs: _, ...meta } = sglangBody.meta_info;
    for (const parse of [
      () => sglangGenerateCodec.parseResponse({ ...sglangBody, meta_info: meta }, "b1", asked),
      () =>
        vllmCompletionsCodec.parseResponse(
          { choices: [{ ...vllmBody.choices[0], logprobs: { token_logprobs: [-0.1, -3.5] } }] },
          "b1",
          asked,
        ),
    ]) {
      let failure: unknown;
      try {
        parse();
      } catch (error) {
        failure = error;
      }
      expect(isInferenceFailure(failure) && failure.message).toMatch(/top_logprobs is missing/);
    }
  });
});
