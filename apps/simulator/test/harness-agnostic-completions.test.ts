// The harness-agnostic policy over real HTTP: a Qwen3 first prompt rendered with Qwen Code's tools
// goes to the simulator's vLLM `/v1/completions` as token ids (as the gateway sends it), and the
// answers play a SWE fixture's script through Qwen Code's own tools, turn by turn, parsed back
// with Qwen3's tool-call parser. On `/v1/chat/completions` the same scripts reach Claude Code's tools.
import { createQwen3ModelFamily } from "@raas/inference";
import { buildHarnessSwePolicyConfig } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLAUDE_CODE_TOOLS, QWEN_CODE_TOOLS } from "../src/policies/harness-cli-tools.fixture";
import { type RunningSimulator, startSimulator } from "../src/start-simulator";

const SOLVED = {
  instance_id: "fixture__tinystats-1",
  repo: "raas-fixtures/tinystats",
  patch: "diff --git a/core.py b/core.py\n--- a/core.py\n+++ b/core.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n",
};
const FAILED = { instance_id: "fixture__slugkit-7", repo: "raas-fixtures/slugkit", patch: "unused\n" };

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
type Json = any;

describe("harness-agnostic policy through the simulator's HTTP endpoints", () => {
  const family = createQwen3ModelFamily();
  const knownTools = QWEN_CODE_TOOLS.map((tool) => tool.name);
  let simulator: RunningSimulator;

  beforeAll(async () => {
    simulator = await startSimulator({
      policy: buildHarnessSwePolicyConfig([SOLVED, FAILED], new Set([SOLVED.instance_id])),
      latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 },
    });
  });
  afterAll(() => simulator.close());

  const post = async (path: string, body: Json) => {
    const response = await fetch(`${simulator.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Json;
  };

  /** Runs a conversation to its end on `/v1/completions`, answering each call with a tool result. */
  async function playOnCompletions(taskId: string) {
    let ids = family.tokenizer.encode(
      family.renderPrompt(
        [
          { role: "system", content: "You are Qwen Code, an interactive CLI agent." },
          { role: "user", content: `task_id: ${taskId}\nFix the failing test.` },
        ],
        { tools: QWEN_CODE_TOOLS },
      ),
    );
    const turns = [];
    for (let turn = 0; turn < 6; turn += 1) {
      const body = await post("/v1/completions", { prompt: ids, max_tokens: 4_096, seed: 7 });
      const [choice] = body.choices;
      const parsed = family.parseResponse(choice.text, { knownTools });
      turns.push(parsed);
      if (parsed.toolCalls.length === 0) break;
      const continuation = family.renderContinuation([{ role: "tool", content: "ok" }], {
        hasEndOfTurn: choice.finish_reason === "stop",
      });
      ids = [...ids, ...choice.token_ids, ...family.tokenizer.encode(continuation)];
    }
    return turns;
  }

  it("solves with Qwen Code's run_shell_command and write_file, then answers without a call", async () => {
    const turns = await playOnCompletions(SOLVED.instance_id);
    expect(turns.map((turn) => turn.toolCalls)).toEqual([
      [
        {
          name: "run_shell_command",
          arguments: { command: "cd /workspace/tinystats && git status --short && ls", is_background: false },
        },
      ],
      [
        {
          name: "write_file",
          arguments: { file_path: "/workspace/tinystats/.raas-fix.patch", content: SOLVED.patch },
        },
      ],
      [
        {
          name: "run_shell_command",
          arguments: {
            command:
              "cd /workspace/tinystats && git apply .raas-fix.patch && rm .raas-fix.patch && git diff --stat",
            is_background: false,
          },
        },
      ],
      [],
    ]);
    expect(turns[0]?.thinking).toBe("Let me look at the repository first.");
    expect(turns.at(-1)?.content).toBe("The fix is in place.");
    expect(turns.flatMap((turn) => turn.toolCallErrors)).toEqual([]);
  });

  it("fails on purpose: a note instead of the fix", async () => {
    const turns = await playOnCompletions(FAILED.instance_id);
    expect(turns.map((turn) => turn.toolCalls.map((call) => call.name))).toEqual([
      ["run_shell_command"],
      ["write_file"],
      [],
    ]);
    expect(turns[1]?.toolCalls[0]?.arguments).toEqual({
      file_path: "/workspace/slugkit/NOTES.md",
      content: "See the issue tracker.\n",
    });
    expect(turns.at(-1)?.content).toBe("Done.");
  });

  it("reads the tools a chat request declares (Claude Code's) and calls Bash", async () => {
    const tools = CLAUDE_CODE_TOOLS.map((tool) => ({ type: "function", function: tool }));
    const body = await post("/v1/chat/completions", {
      messages: [{ role: "user", content: `task_id: ${SOLVED.instance_id}\nFix it.` }],
      tools,
    });
    expect(body.choices[0].message.tool_calls).toMatchObject([
      {
        type: "function",
        function: {
          name: "Bash",
          arguments: JSON.stringify({ command: "cd /workspace/tinystats && git status --short && ls" }),
        },
      },
    ]);
  });
});
