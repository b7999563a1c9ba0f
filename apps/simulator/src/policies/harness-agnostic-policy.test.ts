import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { OfferedTool } from "../engine/offered-tools";
import { seededRandom } from "../engine/seeded-random";
import { createPolicy } from "./create-policy";
import {
  CLAUDE_CODE_TOOLS,
  CODEX_EXEC_TOOLS,
  CODEX_TOOLS,
  OPENCODE_TOOLS,
  QWEN_CODE_TOOLS,
} from "./harness-cli-tools.fixture";
import { heredocWrite } from "./harness-tools";
import type { PolicyTurn } from "./policy.types";

const PATCH = "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a = 1\n+a = 2\n";

const policy = createPolicy({
  kind: "harness-agnostic",
  tasks: {
    fix: {
      steps: [
        { thinking: "Look first.", shell: "cd /workspace/repo && ls" },
        { writeFile: { path: "/workspace/repo/fix.patch", content: PATCH } },
        { finish: "The fix is in place." },
      ],
    },
  },
});

function turn(tools: readonly OfferedTool[], turnIndex: number, taskId = "fix"): PolicyTurn {
  return policy.respond({
    taskId,
    turnIndex,
    random: seededRandom(1),
    trajectoryRandom: seededRandom(2),
    maxTokens: 1_024,
    offeredTools: tools,
  });
}

const HEREDOC_WRITE = heredocWrite("/workspace/repo/fix.patch", PATCH);

const CLIS: {
  name: string;
  tools: OfferedTool[];
  shell: { name: string; arguments: Record<string, unknown> };
  write: { name: string; arguments: Record<string, unknown> };
}[] = [
  {
    name: "Qwen Code",
    tools: QWEN_CODE_TOOLS,
    shell: {
      name: "run_shell_command",
      arguments: { command: "cd /workspace/repo && ls", is_background: false },
    },
    write: { name: "write_file", arguments: { file_path: "/workspace/repo/fix.patch", content: PATCH } },
  },
  {
    name: "Claude Code",
    tools: CLAUDE_CODE_TOOLS,
    shell: { name: "Bash", arguments: { command: "cd /workspace/repo && ls" } },
    write: { name: "Write", arguments: { file_path: "/workspace/repo/fix.patch", content: PATCH } },
  },
  {
    name: "Codex (shell)",
    tools: CODEX_TOOLS,
    shell: { name: "shell", arguments: { command: ["bash", "-lc", "cd /workspace/repo && ls"] } },
    write: { name: "shell", arguments: { command: ["bash", "-lc", HEREDOC_WRITE] } },
  },
  {
    name: "Codex (exec_command)",
    tools: CODEX_EXEC_TOOLS,
    shell: { name: "exec_command", arguments: { cmd: "cd /workspace/repo && ls" } },
    write: { name: "exec_command", arguments: { cmd: HEREDOC_WRITE } },
  },
  {
    name: "opencode",
    tools: OPENCODE_TOOLS,
    shell: {
      name: "bash",
      arguments: { command: "cd /workspace/repo && ls", description: "Run cd /workspace/repo && ls" },
    },
    write: { name: "write", arguments: { filePath: "/workspace/repo/fix.patch", content: PATCH } },
  },
];

describe.each(CLIS)("harness-agnostic policy with $name's tools", ({ tools, shell, write }) => {
  it("runs the shell step with the CLI's shell tool, its argument names and shapes", () => {
    expect(turn(tools, 0)).toEqual({
      type: "message",
      thinking: "Look first.",
      content: "",
      toolCalls: [shell],
    });
  });

  it("writes the file with the CLI's write tool, or a heredoc through its shell", () => {
    expect(turn(tools, 1)).toEqual({ type: "message", thinking: null, content: "", toolCalls: [write] });
  });

  it("finishes with a plain answer and no call, and keeps finishing after the script", () => {
    const finish = { type: "message", thinking: null, content: "The fix is in place.", toolCalls: [] };
    expect(turn(tools, 2)).toEqual(finish);
    expect(turn(tools, 5)).toMatchObject({ toolCalls: [], content: "I have finished the task." });
  });
});

describe("harness-agnostic policy without the tools it needs", () => {
  it("says in plain text that no shell tool was offered, naming what was", () => {
    const onlyRead = CLAUDE_CODE_TOOLS.filter((tool) => ["Read", "SlashCommand"].includes(tool.name));
    expect(turn(onlyRead, 0)).toMatchObject({
      toolCalls: [],
      content: "The simulator found no shell tool among the offered tools (SlashCommand, Read).",
    });
    expect(turn([], 1)).toMatchObject({
      toolCalls: [],
      content: "The simulator found neither a file-writing nor a shell tool among the offered tools (none).",
    });
  });

  it("answers an unscripted task without a call", () => {
    expect(turn(QWEN_CODE_TOOLS, 0, "other")).toMatchObject({
      toolCalls: [],
      content: "The simulator has no harness script for task other.",
    });
  });
});

describe("harness-agnostic config", () => {
  it("rejects a step with two actions, naming the rule", () => {
    expect(() =>
      createPolicy({ kind: "harness-agnostic", tasks: { t: { steps: [{ shell: "ls", finish: "x" }] } } }),
    ).toThrow(/exactly one of shell, writeFile or finish/);
  });
});

describe("heredocWrite", () => {
  it.each([
    ["with a trailing newline", PATCH],
    ["without one", "no newline at the end"],
    ["holding the delimiter", "RAAS_FILE\nRAAS_FILE_1\n"],
    ["empty", ""],
  ])("writes content %s byte for byte through bash", (_, content) => {
    const dir = mkdtempSync(join(tmpdir(), "heredoc-"));
    try {
      const path = join(dir, "sub dir", "it's.txt");
      execFileSync("bash", ["-c", heredocWrite(path, content)]);
      expect(readFileSync(path, "utf8")).toBe(content);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
