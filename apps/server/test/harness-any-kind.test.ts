// A `harness` job on kinds other than swe: INIT and EVAL are the kind's own, RUN is the shipped
// generic example harness (standard-library Python: bash and submit tools, the answer file) in a
// real bubblewrap sandbox, chatting through the job's inference gateway with the simulator (the
// labelled test double for a GPU model) scripted per task. Kinds: `math`, `code`, `reward-fn` (the
// math-verify environment's verify.py), and a user-defined agent handler the server registers.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { composeSandboxRuntime } from "@raas/compose";
import { defineHandler, type InferencePool, type SandboxRuntime } from "@raas/engine";
import { defineAgentHandler, loadEnvironment } from "@raas/handlers";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  call,
  type ScriptedHarnessServer,
  startScriptedHarnessServer,
} from "./support/scripted-harness-server";

const MATH_VERIFY = fileURLToPath(new URL("../../../environments/math-verify/", import.meta.url));

const math = (taskId: string) => ({ taskId, problem: "What is 6 * 7?", answer: "42" });

/** A kind of the caller's own: the harness must leave `word` in `<cwd>/out.txt` and answer it. */
function wordHandler(sandboxRuntime: SandboxRuntime) {
  const noLoop = () => Promise.reject(new Error("a harness job runs no built-in loop"));
  return defineAgentHandler<{ taskId: string; word: string }, undefined, { written: string | null }>({
    kind: "word-echo",
    description: "Write the word to out.txt in the work directory, and answer it.",
    payloadSchema: z.object({ taskId: z.string(), word: z.string().min(1) }).strict(),
    tools: [],
    systemPrompt: () => "Write the word to out.txt, then submit it.",
    userMessage: (payload) => `Task id: ${payload.taskId}\n\nThe word is ${payload.word}.`,
    sandbox: () => ({ files: { "work/.keep": "" } }),
    harnessCwd: () => "/workspace/work",
    async collect({ sandbox }) {
      const read = await sandbox.exec(["cat", "/workspace/work/out.txt"], { timeoutMs: 30_000 });
      return { written: read.exitCode === 0 ? read.stdout.trim() : null };
    },
    async evaluate({ payload, run, artifacts }) {
      const answered = run.submission?.arguments.answer;
      const isSolved = artifacts.written === payload.word && answered === payload.word;
      return { reward: isSolved ? 1 : 0, result: { written: artifacts.written, answered: answered ?? null } };
    },
  })({
    sandboxRuntime,
    inference: { generate: noLoop, releaseJob: () => undefined } as unknown as InferencePool,
    chatFormat: {} as never,
  });
}

describe("harness jobs on any agent kind", () => {
  let server: ScriptedHarnessServer;
  let ownRuntime: SandboxRuntime;
  const ownSandboxDir = mkdtempSync(join(tmpdir(), "raas-harness-own-kind-"));
  let rewardTasks: Awaited<ReturnType<typeof loadEnvironment>>["tasks"];

  beforeAll(async () => {
    rewardTasks = (await loadEnvironment(MATH_VERIFY)).tasks;
    ownRuntime = composeSandboxRuntime(
      { runtime: "bubblewrap", baseDir: ownSandboxDir },
      pino({ level: "silent" }),
      { requireInstalled: true },
    );
    server = await startScriptedHarnessServer({
      name: "harness-any-kind",
      handlers: [defineHandler(wordHandler(ownRuntime))],
      tasks: {
        "math-right": {
          steps: [
            call("bash", { command: "python3 -c 'print(6 * 7)'" }),
            call("submit", { answer: "\\boxed{42}" }),
          ],
        },
        "math-wrong": { steps: [call("submit", { answer: "\\boxed{41}" })] },
        "math-text": { steps: [{ content: "Six sevens make \\boxed{42}." }] },
        "math-verify-00": { steps: [call("submit", { answer: "\\boxed{42}" })] },
        "math-verify-01": { steps: [call("submit", { answer: "\\boxed{150}" })] },
        "code-sum": {
          steps: [
            call("bash", {
              command: "printf 'a, b = map(int, input().split())\\nprint(a + b)\\n' > solution.py",
            }),
            call("submit"),
          ],
        },
        "word-1": {
          steps: [call("bash", { command: "echo kiwi > out.txt" }), call("submit", { answer: "kiwi" })],
        },
      },
    });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await ownRuntime?.closeAll();
    rmSync(ownSandboxDir, { recursive: true, force: true });
  });

  it("registers harness without swe, over every agent kind and the server's own", () => {
    const kinds = server.running.engine.handlerKinds();
    expect(kinds).toContain("harness");
    expect(kinds).not.toContain("swe");
  });

  it("grades a math task the harness answered: full reward when right, 0 when wrong", async () => {
    const right = await server.runJob({
      kind: "harness",
      payload: { task: { kind: "math", payload: math("math-right") } },
    });
    expect(right.failure).toBeNull();
    expect(right).toMatchObject({ status: "completed", reward: 1, trainable: true });
    expect(right.result).toMatchObject({
      isCorrect: true,
      extracted: "42",
      agent: {
        stopReason: "final_answer",
        turns: 2,
        toolCalls: 2,
        finalContent: "\\boxed{42}",
        submission: { name: "submit", arguments: { answer: "\\boxed{42}" } },
      },
      tokenDrift: { isConsistent: true, turnsChecked: 0 },
    });
    expect((await server.running.gateway.buildTraces(right.id)).certificate).toMatchObject({
      isCertified: true,
      callCount: 2,
    });
    const { turns } = await server.running.engine.getTrajectory(right.id);
    expect(turns).toHaveLength(2);

    const wrong = await server.runJob({
      kind: "harness",
      payload: { task: { kind: "math", payload: math("math-wrong") } },
    });
    expect(wrong).toMatchObject({ status: "completed", reward: 0, trainable: true });
    expect(wrong.result).toMatchObject({ isCorrect: false, extracted: "41" });
  }, 300_000);

  it("takes the model's last message, else the harness's output, when there is no submit call", async () => {
    const text = await server.runJob({
      kind: "harness",
      payload: { task: { kind: "math", payload: math("math-text") } },
    });
    expect(text).toMatchObject({ status: "completed", reward: 1 });
    // Its own command: no model call, no answer file; the stdout's tail is the final message.
    const printed = await server.runJob({
      kind: "harness",
      payload: {
        task: { kind: "math", payload: math("math-printed") },
        command: ["bash", "-c", "echo 'I worked it out: \\boxed{42}'"],
      },
    });
    expect(printed).toMatchObject({ status: "completed", reward: 1 });
    expect(printed.result).toMatchObject({ agent: { turns: 0, submission: null } });
    // A harness past its time limit is stopped; what it left is graded.
    const slow = await server.runJob({
      kind: "harness",
      payload: {
        task: { kind: "math", payload: math("math-slow") },
        command: ["sleep", "60"],
        timeoutMs: 1_000,
      },
    });
    expect(slow).toMatchObject({ status: "completed", reward: 0, trainable: true });
    expect(slow.result).toMatchObject({ agent: { stopReason: "time_budget" } });
  }, 300_000);

  it("grades a code task's solution file with its hidden tests", async () => {
    const job = await server.runJob({
      kind: "harness",
      payload: {
        task: {
          kind: "code",
          payload: {
            taskId: "code-sum",
            prompt: "Read two integers a and b on one line and print their sum.",
            tests: {
              kind: "stdio",
              cases: [
                { input: "1 2\n", output: "3\n" },
                { input: "-5 5\n", output: "0\n" },
              ],
            },
          },
        },
      },
    });
    expect(job.failure).toBeNull();
    expect(job).toMatchObject({ status: "completed", reward: 1 });
  }, 300_000);

  it("grades a reward-fn task with the environment's verify.py", async () => {
    const [first, second] = rewardTasks;
    const jobOf = (task: NonNullable<typeof first>) => ({
      kind: "harness",
      payload: { task: { kind: "reward-fn", payload: task.request.payload } },
      timeoutsMs: task.request.timeoutsMs,
    });
    const solved = await server.runJob(jobOf(first!));
    expect(solved.failure).toBeNull();
    expect(solved).toMatchObject({ status: "completed", reward: 1 });
    expect(solved.result).toMatchObject({
      environment: "math-verify",
      solutionSource: "submission",
      verifier: { status: "scored", score: 1 },
    });
    const missed = await server.runJob(jobOf(second!));
    expect(missed).toMatchObject({ status: "completed", reward: 0 });
  }, 300_000);

  it("plays the agent of a kind the server was given, in the kind's own directory", async () => {
    expect(server.running.engine.handlerKinds()).toContain("word-echo");
    const job = await server.runJob({
      kind: "harness",
      payload: { task: { kind: "word-echo", payload: { taskId: "word-1", word: "kiwi" } } },
    });
    expect(job.failure).toBeNull();
    expect(job).toMatchObject({ status: "completed", reward: 1 });
    expect(job.result).toMatchObject({ written: "kiwi", answered: "kiwi" });
  }, 300_000);

  it("answers a bad task with a 400 naming its path, never a 500", async () => {
    const post = async (payload: unknown) => {
      const response = await fetch(`${server.running.url}/api/v1/jobs`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${server.running.auth.adminToken}`,
          "content-type": "application/json",
        },
        body: JSON.stringify({ kind: "harness", payload }),
      });
      return { status: response.status, body: (await response.json()) as { error?: { message: string } } };
    };
    const cases: Array<[unknown, RegExp]> = [
      [
        { task: { kind: "math", payload: { taskId: "x", problem: "1+1?" } } },
        /payload\.task\.payload\.answer: /,
      ],
      [
        { task: { kind: "sleep", payload: {} } },
        /payload\.task\.kind: a harness plays the agent of these kinds only: .*math/,
      ],
      [{ task: { kind: "no-such-kind", payload: {} } }, /payload\.task\.kind: /],
      [{ task: { problem: "1+1?" } }, /payload\.task\.kind: required/],
      [
        {
          task: {
            kind: "math",
            payload: { ...math("x"), mcp: { servers: [{ name: "db", command: "python3" }] } },
          },
        },
        /payload\.task\.payload\.mcp: a harness job runs its own agent/,
      ],
    ];
    for (const [payload, message] of cases) {
      const response = await post(payload);
      expect(response.status, JSON.stringify(payload)).toBe(400);
      expect(response.body.error?.message).toMatch(message);
    }
  });
});
