import { describe, expect, it } from "vitest";
import { isInferenceFailure } from "../inference-failure";
import { sglangPromptScoringCodec, vllmPromptScoringCodec } from "./prompt-scoring.codec";

const ids = [151_644, 872, 198];

// vLLM /v1/completions with prompt_logprobs: 1: per prompt token, the token's own entry (and the
// most likely token when that is another), keyed by token id; the first entry null.
const vllmBody = {
  choices: [
    {
      text: "",
      token_ids: [11],
      logprobs: null,
      prompt_logprobs: [
        null,
        { "872": { logprob: -3.25, rank: 4, decoded_token: "user" }, "9": { logprob: -0.5, rank: 1 } },
        { "198": { logprob: -0.125, rank: 1, decoded_token: "\n" } },
      ],
      finish_reason: "length",
    },
  ],
  usage: { prompt_tokens: 3, completion_tokens: 1 },
};

// SGLang /generate with return_logprob, logprob_start_len 0, max_new_tokens 0.
const sglangBody = {
  text: "",
  output_ids: [],
  meta_info: {
    prompt_tokens: 3,
    completion_tokens: 0,
    input_token_logprobs: [
      [null, 151_644, null],
      [-3.25, 872, null],
      [-0.125, 198, null],
    ],
    output_token_logprobs: [],
  },
};

function failureOf(parse: () => unknown): unknown {
  try {
    parse();
  } catch (error) {
    return error;
  }
  return null;
}

describe("prompt scoring codecs", () => {
  it("asks vLLM for prompt_logprobs over token ids, one generated token at most", () => {
    expect(vllmPromptScoringCodec.buildRequest(ids, "teacher-32b")).toEqual({
      model: "teacher-32b",
      prompt: ids,
      max_tokens: 1,
      temperature: 0,
      prompt_logprobs: 1,
      return_tokens_as_token_ids: true,
      skip_special_tokens: false,
    });
    expect(vllmPromptScoringCodec.path).toBe("/v1/completions");
  });

  it("reads the prompt's own token's logprob at each position, null for the first", () => {
    expect(vllmPromptScoringCodec.parseResponse(vllmBody, "t1", ids)).toEqual([null, -3.25, -0.125]);
    const asTokenIds = {
      choices: [{ prompt_logprobs: [null, { "token_id:872": { logprob: -1 } }, { "token_id:198": -2 }] }],
    };
    expect(vllmPromptScoringCodec.parseResponse(asTokenIds, "t1", ids)).toEqual([null, -1, -2]);
  });

  it("names what is wrong with a vLLM answer", () => {
    const short = { choices: [{ prompt_logprobs: [null, vllmBody.choices[0]?.prompt_logprobs[1]] }] };
    const missing = { choices: [{ prompt_logprobs: [null, { "5": { logprob: -1 } }, { "198": -1 }] }] };
    const absent = { choices: [{ text: "" }] };
    const cases: [unknown, RegExp][] = [
      [short, /prompt_logprobs has 2 entries for 3 prompt tokens/],
      [missing, /prompt_logprobs\[1\] has no entry for the prompt's token 872/],
      [absent, /prompt_logprobs is missing or not an array/],
    ];
    for (const [body, message] of cases) {
      const failure = failureOf(() => vllmPromptScoringCodec.parseResponse(body, "t1", ids));
      expect(isInferenceFailure(failure) && failure.message).toMatch(message);
    }
  });

  it("asks SGLang for input logprobs from the first token, generating none", () => {
    expect(sglangPromptScoringCodec.buildRequest(ids, "m")).toEqual({
      input_ids: ids,
      sampling_params: { max_new_tokens: 0, temperature: 0 },
      return_logprob: true,
      logprob_start_len: 0,
      stream: false,
    });
    expect(sglangPromptScoringCodec.parseResponse(sglangBody, "t2", ids)).toEqual([null, -3.25, -0.125]);
  });

  it("refuses SGLang input logprobs of other tokens or another length", () => {
    const other = {
      meta_info: {
        input_token_logprobs: [
          [null, 151_644],
          [-1, 873],
          [-2, 198],
        ],
      },
    };
    const short = { meta_info: { input_token_logprobs: [[null, 151_644]] } };
    const wrong = failureOf(() => sglangPromptScoringCodec.parseResponse(other, "t2", ids));
    expect(isInferenceFailure(wrong) && wrong.message).toMatch(/input_token_logprobs\[1\]\[1\] is token 873/);
    const cut = failureOf(() => sglangPromptScoringCodec.parseResponse(short, "t2", ids));
    expect(isInferenceFailure(cut) && cut.message).toMatch(/has 1 entries for 3 prompt tokens/);
  });
});
