// MCP tool servers end to end: RolloutEngine → real bubblewrap sandboxes → the math handler's
// agent loop in the Qwen3 format → the in-process simulator (scripted) → MCP servers started in
// the job's sandbox (the shipped environments/mcp-db server, and a test fixture that can crash).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadEnvironment } from "@raas/handlers";
import { createQwen3ChatFormat } from "@raas/inference";
import type { TJob } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TPolicyConfigInput } from "../src/index";
import { type RolloutFixture, startRolloutFixture } from "./support/rollout-fixture";

const ENV_DIR = new URL("../../../environments/mcp-db/", import.meta.url);
const DB_SERVER = readFileSync(new URL("mcp_db_server.py", ENV_DIR), "utf8");
const FIXTURE_SERVER = readFileSync(new URL("./support/mcp-fixture-server.py", import.meta.url), "utf8");
/** The environment's dataset rows: each task's id and the answer its verifier takes. */
const TASKS = readFileSync(fileURLToPath(new URL("data.jsonl", ENV_DIR)), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as { id: string; ground_truth: string })
  .map((row) => ({ taskId: row.id, answer: row.ground_truth }));

/** The SQL that answers each shipped task. */
const ANSWER_SQL: Record<string, string> = {
  "mcp-db-mugs-sold":
    "SELECT SUM(quantity) FROM order_items JOIN products ON products.id = product_id WHERE products.name = 'mug'",
  "mcp-db-ana-orders":
    "SELECT COUNT(*) FROM orders JOIN customers ON customers.id = customer_id WHERE customers.name = 'Ana Souza'",
  "mcp-db-lisbon-revenue":
    "SELECT SUM(quantity * price_cents) FROM order_items oi JOIN products p ON p.id = oi.product_id JOIN orders o ON o.id = oi.order_id JOIN customers c ON c.id = o.customer_id WHERE c.city = 'Lisbon'",
};

type Mode = "add" | "only";
const dbTools = (toolsMode: Mode = "add") => ({
  toolsMode,
  servers: [{ name: "db", command: "python3", args: ["-I", "-c", DB_SERVER] }],
});
const fixtureTools = (toolsMode: Mode = "add", env: Record<string, string> = {}) => ({
  toolsMode,
  servers: [{ name: "fixture", command: "python3", args: ["-I", "-c", FIXTURE_SERVER], env }],
});
const mathJob = (taskId: string, mcp: unknown, problem = "Use the tools.", answer = "6") => ({
  kind: "math",
  payload: { taskId, problem, answer, mcp },
});
const call = (name: string, args: Record<string, unknown> = {}) => ({
  toolCalls: [{ name, arguments: args }],
});
const python = (code: string) => call("python", { code });

/** Kills the fixture server from the agent's own python, then waits until it is gone. */
const KILL_FIXTURE = [
  "import subprocess, time",
  "seen = subprocess.run(['pgrep', '-fc', 'raas-mcp-fixture'], capture_output=True, text=True).stdout.strip()",
  "subprocess.run(['pkill', '-KILL', '-f', 'raas-mcp-fixture'])",
  "while subprocess.run(['pgrep', '-f', 'raas-mcp-fixture'], capture_output=True).returncode == 0: time.sleep(0.05)",
  "print('seen', seen)",
].join("\n");

/** Each mcp-db task as loaded from the environment's directory, once to solve and once to answer wrongly. */
async function environmentJobs() {
  const environment = await loadEnvironment(fileURLToPath(ENV_DIR));
  expect(environment.kind).toBe("reward-fn");
  return environment.tasks.flatMap(({ request }) =>
    ["solve", "wrong"].map((variant) => ({
      ...request,
      payload: { ...request.payload, taskId: `${request.payload.taskId}-${variant}` },
    })),
  );
}

/** Submits `jobs` and waits for all; returns them by task id. */
async function runJobs(
  fixture: RolloutFixture,
  jobs: Parameters<RolloutFixture["engine"]["submitJobs"]>[0],
): Promise<Map<string, TJob>> {
  const submitted = await fixture.engine.submitJobs(jobs);
  const { jobs: done } = await fixture.engine.waitForJobs(
    submitted.map((s) => s.job.id),
    { timeoutMs: 600_000 },
  );
  return new Map(done.map((job) => [(job.payload as { taskId: string }).taskId, job]));
}

const outcome = (job: TJob | undefined) => [job?.status, job?.reward, job?.failure?.kind ?? null];

describe("MCP tool servers in the built-in agent loop (tool jail on)", () => {
  const chatFormat = createQwen3ChatFormat();
  let fixture: RolloutFixture;
  let jobs = new Map<string, TJob>();

  beforeAll(async () => {
    const tasks: Record<string, { steps: unknown[] }> = {
      "offer-add": {
        steps: [call("query", { sql: "SELECT COUNT(*) FROM customers" }), call("submit", { answer: "6" })],
      },
      "offer-only": { steps: [call("submit", { answer: "0" })] },
      crash: { steps: [call("echo", { text: "hi" }), call("reject"), call("crash")] },
      "collide-builtin": { steps: [call("submit", { answer: "0" })] },
      "collide-finish": { steps: [call("submit", { answer: "0" })] },
      "no-server": { steps: [call("submit", { answer: "0" })] },
      "kill-jailed": {
        steps: [python(KILL_FIXTURE), call("echo", { text: "still here" }), call("submit", { answer: "0" })],
      },
    };
    for (const task of TASKS) {
      const query = ANSWER_SQL[task.taskId] ?? "";
      tasks[`${task.taskId}-solve`] = {
        steps: [
          call("list_tables"),
          call("describe_table", { table: "orders" }),
          call("query", { sql: query }),
          call("submit", { answer: task.answer }),
        ],
      };
      tasks[`${task.taskId}-wrong`] = {
        steps: [call("query", { sql: "SELECT 1" }), call("submit", { answer: "1" })],
      };
    }
    fixture = await startRolloutFixture({
      policy: { kind: "scripted", tasks } as TPolicyConfigInput,
      maxAttempts: 1,
    });
    jobs = await runJobs(fixture, [
      mathJob("offer-add", dbTools("add")),
      mathJob("offer-only", dbTools("only")),
      mathJob("crash", fixtureTools()),
      mathJob("collide-builtin", fixtureTools("add", { FIXTURE_TOOL_NAME: "python" })),
      mathJob("collide-finish", fixtureTools("only", { FIXTURE_TOOL_NAME: "submit" })),
      mathJob("kill-jailed", fixtureTools()),
      mathJob("no-server", { servers: [{ name: "gone", command: "/nonexistent/mcp-server" }] }),
      // The shipped environment as users run it: loaded from its directory (reward-fn jobs whose
      // payloads carry the server from its `[mcp]` table, graded by its verify.py).
      ...(await environmentJobs()),
    ]);
  }, 700_000);

  afterAll(async () => {
    await fixture?.close();
  });

  const promptOf = async (taskId: string, turn: number) => {
    const job = jobs.get(taskId);
    const { turns } = await fixture.engine.getTrajectory(job?.id ?? "");
    return chatFormat.decode(turns[turn]?.promptIds ?? []);
  };

  it("offers the server's tools with their schemas in the Qwen3 tools section, beside or instead of python", async () => {
    const toolsOf = (prompt: string) =>
      [...prompt.matchAll(/^\{"type": "function", "function": (.*)\}$/gm)].map(
        (m) => JSON.parse(m[1] as string) as { name: string; parameters: unknown },
      );
    const added = toolsOf(await promptOf("offer-add", 0));
    expect(added.map((tool) => tool.name)).toEqual([
      "python",
      "list_tables",
      "describe_table",
      "query",
      "submit",
    ]);
    expect(added.find((tool) => tool.name === "query")?.parameters).toEqual({
      type: "object",
      properties: { sql: { type: "string", description: "The SQL statement." } },
      required: ["sql"],
      additionalProperties: false,
    });
    const only = toolsOf(await promptOf("offer-only", 0));
    expect(only.map((tool) => tool.name)).toEqual(["list_tables", "describe_table", "query", "submit"]);
  });

  it("sends a call to the server and returns its result as a tool message, token-exact", async () => {
    const job = jobs.get("offer-add");
    expect(outcome(job)).toEqual(["completed", 1, null]);
    const { toolCalls } = await fixture.engine.getTrajectory(job?.id ?? "");
    expect(toolCalls[0]).toMatchObject({ name: "query", isError: false });
    expect(JSON.parse(String(toolCalls[0]?.output))).toEqual({
      columns: ["COUNT(*)"],
      rows: [[6]],
      truncated: false,
    });
    expect(await promptOf("offer-add", 1)).toContain(
      '<tool_response>\n{"columns": ["COUNT(*)"], "rows": [[6]], "truncated": false}\n</tool_response>',
    );
    expect((job?.result as { tokenDrift?: { isConsistent: boolean } })?.tokenDrift?.isConsistent).toBe(true);
  });

  it("solves each mcp-db task through the tools for reward 1, and a wrong answer earns 0", () => {
    const rewards = Object.fromEntries(
      TASKS.flatMap((task) =>
        ["solve", "wrong"].map((v) => [`${task.taskId}-${v}`, outcome(jobs.get(`${task.taskId}-${v}`))]),
      ),
    );
    expect(rewards).toEqual(
      Object.fromEntries(
        TASKS.flatMap((task) => [
          [`${task.taskId}-solve`, ["completed", 1, null]],
          [`${task.taskId}-wrong`, ["completed", 0, null]],
        ]),
      ),
    );
  });

  it("fails a job whose server crashes during a call as sandbox (infrastructure, no reward)", async () => {
    const job = jobs.get("crash");
    const { toolCalls } = await fixture.engine.getTrajectory(job?.id ?? "");
    // A JSON-RPC error the server answers with is the model's to read; only the crash ends the job.
    expect(toolCalls.map((c) => [c.name, c.isError, c.output])).toEqual([
      ["echo", false, "echo: hi"],
      ["reject", true, "reject failed: MCP error -32602: rejected on purpose"],
    ]);
    expect(outcome(job)).toEqual(["failed", null, "sandbox"]);
    expect(job?.failure?.message).toMatch(
      /MCP server "fixture" exited with code 3; its stderr ends: fixture crashing on purpose \(during the agent's crash call\)/,
    );
  });

  it("fails a job whose server does not start as sandbox, with what the server said", () => {
    const job = jobs.get("no-server");
    expect(outcome(job)).toEqual(["failed", null, "sandbox"]);
    // The environment's misconfiguration, not retried: apps/simulator/test/mcp-misconfigured.test.ts.
    expect(job?.failure?.message).toMatch(
      /MCP server "gone" is misconfigured .*: its command was not found \(exit code 127\) before answering initialize; its stderr ends: .*nonexistent/,
    );
  });

  it("refuses a server tool named like a built-in or the finish tool, saying so", () => {
    expect(outcome(jobs.get("collide-builtin"))).toEqual(["failed", null, "sandbox"]);
    expect(jobs.get("collide-builtin")?.failure?.message).toMatch(
      /MCP server "fixture" offers a tool named "python", which is the handler's built-in tool of that name; rename the server's tool, or set toolsMode "only"/,
    );
    expect(outcome(jobs.get("collide-finish"))).toEqual(["failed", null, "sandbox"]);
    expect(jobs.get("collide-finish")?.failure?.message).toMatch(/offers a tool named "submit"/);
  });

  it("keeps the server out of the agent's reach under the tool jail: its python cannot see or kill it", async () => {
    const job = jobs.get("kill-jailed");
    expect(outcome(job)).toEqual(["completed", 0, null]);
    const { toolCalls } = await fixture.engine.getTrajectory(job?.id ?? "");
    expect(toolCalls.map((c) => [c.name, String(c.output).trim()])).toEqual([
      ["python", "seen 0"],
      ["echo", "echo: still here"],
    ]);
  });
});

describe("MCP tool servers without a tool jail", () => {
  let fixture: RolloutFixture;
  let jobs = new Map<string, TJob>();

  beforeAll(async () => {
    const tasks = {
      "kill-unjailed": {
        steps: [call("echo", { text: "hi" }), python(KILL_FIXTURE), call("submit", { answer: "0" })],
      },
    };
    fixture = await startRolloutFixture({
      policy: { kind: "scripted", tasks } as TPolicyConfigInput,
      maxAttempts: 1,
      toolJail: "off",
    });
    jobs = await runJobs(fixture, [mathJob("kill-unjailed", fixtureTools())]);
  }, 700_000);

  afterAll(async () => {
    await fixture?.close();
  });

  it("blames the policy for a server its own python killed: agent failure, reward 0", async () => {
    const job = jobs.get("kill-unjailed");
    expect(outcome(job)).toEqual(["failed", 0, "agent"]);
    expect(job?.failure?.message).toMatch(/MCP server "fixture" ended during the agent's own python call/);
    const { toolCalls } = await fixture.engine.getTrajectory(job?.id ?? "");
    expect(toolCalls.map((c) => c.name)).toEqual(["echo", "python"]);
  });
});
