import { describe, expect, it } from "vitest";
import {
  describeSamplingConflicts,
  findSamplingConflicts,
  HARNESS_SAMPLING_FIELDS,
} from "./harness-sampling";
import { describeSampling } from "./sampling-record";

describe("findSamplingConflicts", () => {
  const job = { temperature: 0.7, topP: 0.9, seed: 42 };

  it("finds every field that asks for another distribution than the job's", () => {
    const conflicts = findSamplingConflicts(
      {
        messages: [],
        temperature: 0,
        top_p: 0.1,
        top_k: 5,
        min_p: 0.2,
        seed: 1,
        presence_penalty: 1.5,
        frequency_penalty: -1,
        repetition_penalty: 1.3,
        logit_bias: { "42": 100 },
        best_of: 4,
      },
      job,
    );
    expect(conflicts).toEqual([
      { field: "temperature", value: 0, jobValue: "0.7" },
      { field: "top_p", value: 0.1, jobValue: "0.9" },
      { field: "top_k", value: 5, jobValue: "none" },
      { field: "seed", value: 1, jobValue: "42" },
      { field: "min_p", value: 0.2, jobValue: "0" },
      { field: "presence_penalty", value: 1.5, jobValue: "0" },
      { field: "frequency_penalty", value: -1, jobValue: "0" },
      { field: "repetition_penalty", value: 1.3, jobValue: "1" },
      { field: "best_of", value: 4, jobValue: "1" },
      { field: "logit_bias", value: { "42": 100 }, jobValue: "{}" },
    ]);
    expect(describeSamplingConflicts(conflicts.slice(0, 1))).toContain("temperature 0 (the job's: 0.7)");
  });

  it("lets a harness repeat the job's settings, neutral values and nulls", () => {
    expect(
      findSamplingConflicts(
        {
          temperature: 0.7,
          top_p: 0.9,
          seed: 42,
          top_k: -1,
          min_p: 0,
          presence_penalty: 0,
          frequency_penalty: 0,
          repetition_penalty: 1,
          logit_bias: {},
          best_of: 1,
          typical_p: null,
        },
        job,
      ),
    ).toEqual([]);
  });

  it("compares with the backend defaults the job samples with when it sets nothing", () => {
    expect(findSamplingConflicts({ temperature: 1, top_p: 1, top_k: 0 }, {})).toEqual([]);
    expect(findSamplingConflicts({ temperature: 0.2, seed: 3, top_k: 40 }, { topK: 40 })).toEqual([
      { field: "temperature", value: 0.2, jobValue: "1" },
      { field: "seed", value: 3, jobValue: "none" },
    ]);
  });

  it("covers the fields of the Messages and Responses shapes too (temperature, top_p, top_k)", () => {
    expect(HARNESS_SAMPLING_FIELDS).toEqual(expect.arrayContaining(["temperature", "top_p", "top_k"]));
  });
});

describe("describeSampling", () => {
  it("records what the codecs send: temperature and top-p default to 1, top-k to -1 (no cut), seed to none", () => {
    expect(describeSampling({ maxTokens: 100, stopTokenIds: [1] })).toEqual({
      temperature: 1,
      topP: 1,
      topK: -1,
      seed: null,
      maxTokens: 100,
    });
    expect(describeSampling({ maxTokens: 8, temperature: 0, topP: 0.5, topK: 3, seed: 9 })).toEqual({
      temperature: 0,
      topP: 0.5,
      topK: 3,
      seed: 9,
      maxTokens: 8,
    });
  });
});
