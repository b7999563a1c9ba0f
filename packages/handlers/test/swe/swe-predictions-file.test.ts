import { failureOf } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { parsePredictions, predictionsFormatOf } from "../../src/swe/swe-bench-format";

const prediction = (id: string, patch: string | null = "diff --git a/x b/x\n") => ({
  instance_id: id,
  model_name_or_path: "qwen3-8b",
  model_patch: patch,
});

/** The error a parse throws, so a test can check both its code and its sentence. */
function errorOf(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the parse to fail");
}

describe("predictions files: the extension decides the layout, as in SWE-bench", () => {
  it("reads a one-line .jsonl file as one prediction, never as an {instance_id: prediction} map", () => {
    const oneLine = `${JSON.stringify(prediction("o__r-1"))}\n`;
    expect(parsePredictions(oneLine, "preds.jsonl")).toEqual([prediction("o__r-1")]);
    // Without a trailing newline, and with an upper-case extension, it is the same file.
    expect(parsePredictions(oneLine.trim(), "PREDS.JSONL")).toEqual([prediction("o__r-1")]);
    // A name that promises nothing: one bare prediction is still one prediction.
    expect(parsePredictions(oneLine, "preds.txt")).toEqual([prediction("o__r-1")]);
  });

  it("reads a .jsonl file line by line even when the whole would parse as a map", () => {
    const map = JSON.stringify({ "o__r-1": prediction("o__r-1") });
    const error = errorOf(() => parsePredictions(map, "preds.jsonl"));
    expect(failureOf(error)).toMatchObject({ kind: "request", code: "VALIDATION_FAILED" });
    expect(error.message).toMatch(/^preds\.jsonl:1: /);
  });

  it("still reads .json as a JSON array or an {instance_id: prediction} object", () => {
    const list = [prediction("o__r-1"), prediction("a__b-0", null)];
    expect(parsePredictions(JSON.stringify(list, null, 2), "preds.json")).toEqual(list);
    const map = { "o__r-1": list[0], "a__b-0": list[1] };
    expect(parsePredictions(JSON.stringify(map, null, 2), "preds.json")).toEqual(list);
    // A one-entry map on one line is the object form in a .json file.
    expect(parsePredictions(JSON.stringify({ "o__r-1": list[0] }), "preds.json")).toEqual([list[0]]);
    // Unknown names decide by content where it is unambiguous.
    expect(parsePredictions(JSON.stringify(map), "preds")).toEqual(list);
    expect(parsePredictions(JSON.stringify(list), "preds")).toEqual(list);
    expect(parsePredictions(list.map((p) => JSON.stringify(p)).join("\n"), "preds")).toEqual(list);
  });

  it("refuses a map whose key is not its prediction's instance", () => {
    const map = JSON.stringify({ "a__b-0": prediction("o__r-1") });
    expect(() => parsePredictions(map, "preds.json")).toThrow(
      /preds\.json\["a__b-0"\]: keyed "a__b-0" but its instance_id is o__r-1/,
    );
  });

  it("gives a clear error for a file whose layout is ambiguous or wrong", () => {
    const bare = JSON.stringify(prediction("o__r-1"));
    const inJson = errorOf(() => parsePredictions(bare, "preds.json"));
    expect(failureOf(inJson)).toMatchObject({ kind: "request", code: "VALIDATION_FAILED" });
    expect(inJson.message).toMatch(/not one bare prediction; JSON Lines files end in \.jsonl/);
    const neither = errorOf(() => parsePredictions(JSON.stringify({ a: 1, b: {} }), "preds.txt"));
    expect(failureOf(neither)).toMatchObject({ kind: "request", code: "VALIDATION_FAILED" });
    expect(neither.message).toMatch(/preds\.txt: one JSON object that is neither .* name the file \.jsonl/);
    expect(() => parsePredictions(`${bare}\n${bare}`, "preds.json")).toThrow(/preds\.json: not valid JSON/);
    expect(() => parsePredictions("42", "preds")).toThrow(/expected a JSON array of predictions/);
  });

  it("takes the layout a file name promises", () => {
    expect(predictionsFormatOf("a/b/preds.jsonl")).toBe("jsonl");
    expect(predictionsFormatOf("preds.json")).toBe("json");
    expect(predictionsFormatOf("preds.ndjson")).toBeUndefined();
    expect(predictionsFormatOf("-")).toBeUndefined();
  });
});
