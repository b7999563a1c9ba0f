// A misconfigured MCP server is the environment's mistake, not infrastructure: end to end through
// RolloutEngine (3 attempts allowed) → real bubblewrap sandboxes → the math handler's agent loop →
// MCP servers in the job's sandbox. A missing command, an exit before the handshake and a protocol
// error in answer to it fail once (kind `sandbox`, label `misconfigured`, reward null, not
// retried) with the server's stderr tail; a crash after the handshake worked is retried as
// infrastructure (no label); a server that never answers the handshake is infrastructure too
// (asked of the provider on a real sandbox with a short limit, since the agent's limit is a minute).
import { readFileSync } from "node:fs";
import { createMcpToolProvider } from "@raas/mcp";
import { FailureError, failureOf, type TJob } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TPolicyConfigInput } from "../src/index";
import { type RolloutFixture, startRolloutFixture } from "./support/rollout-fixture";

const FIXTURE_SERVER = readFileSync(new URL("./support/mcp-fixture-server.py", import.meta.url), "utf8");
const MAX_ATTEMPTS = 3;

const fixtureServer = (env: Record<string, string> = {}) => ({
  name: "fixture",
  command: "python3",
  args: ["-I", "-c", FIXTURE_SERVER],
  env,
});
const SERVERS: Record<string, unknown> = {
  "not-found": { name: "gone", command: "no-such-mcp-server", args: ["--stdio"] },
  "exits-early": {
    name: "early",
    command: "python3",
    args: ["-c", "import sys; sys.stderr.write('early: cannot read /data/shop.db\\n'); sys.exit(2)"],
  },
  "protocol-error": fixtureServer({ FIXTURE_FAIL_AT: "initialize" }),
  "name-taken": fixtureServer({ FIXTURE_TOOL_NAME: "python" }),
  "crash-after-handshake": fixtureServer({ FIXTURE_FAIL_AT: "tools/list" }),
};

describe("MCP servers that cannot start: the environment's configuration or infrastructure", () => {
  let fixture: RolloutFixture;
  const jobs = new Map<string, TJob>();

  beforeAll(async () => {
    const submit = { steps: [{ toolCalls: [{ name: "submit", arguments: { answer: "6" } }] }] };
    fixture = await startRolloutFixture({
      policy: {
        kind: "scripted",
        tasks: Object.fromEntries(Object.keys(SERVERS).map((taskId) => [taskId, submit])),
      } as TPolicyConfigInput,
      maxAttempts: MAX_ATTEMPTS,
    });
    const submitted = await fixture.engine.submitJobs(
      Object.entries(SERVERS).map(([taskId, server]) => ({
        kind: "math",
        payload: { taskId, problem: "Use the tools.", answer: "6", mcp: { servers: [server] } },
      })),
    );
    const { jobs: done } = await fixture.engine.waitForJobs(
      submitted.map((s) => s.job.id),
      { timeoutMs: 600_000 },
    );
    for (const job of done) jobs.set((job.payload as { taskId: string }).taskId, job);
  }, 700_000);

  afterAll(async () => {
    await fixture?.close();
  });

  const outcome = (taskId: string) => {
    const job = jobs.get(taskId);
    const label = job?.failure?.label ?? null;
    return [job?.status, job?.reward, job?.failure?.kind, job?.failure?.stage, label, job?.attempts];
  };

  it("fails a server whose command does not exist once, saying so, with its stderr", () => {
    expect(outcome("not-found")).toEqual(["failed", null, "sandbox", "run", "misconfigured", 1]);
    expect(jobs.get("not-found")?.failure?.message).toMatch(
      /^MCP server "gone" is misconfigured \(the environment's own, not retried\): its command was not found \(exit code 127\) before answering initialize; its stderr ends: .*no-such-mcp-server: not found/,
    );
  });

  it("fails a server that exits before its handshake once, with the tail of its stderr", () => {
    expect(outcome("exits-early")).toEqual(["failed", null, "sandbox", "run", "misconfigured", 1]);
    expect(jobs.get("exits-early")?.failure?.message).toBe(
      `MCP server "early" is misconfigured (the environment's own, not retried): it exited with code 2 before answering initialize; its stderr ends: early: cannot read /data/shop.db`,
    );
  });

  it("fails a server that answers the handshake with a protocol error once", () => {
    expect(outcome("protocol-error")).toEqual(["failed", null, "sandbox", "run", "misconfigured", 1]);
    expect(jobs.get("protocol-error")?.failure?.message).toBe(
      `MCP server "fixture" is misconfigured (the environment's own, not retried): it answered initialize with a protocol error: MCP error -32600: fixture refuses to start: bad configuration; its stderr ends: fixture: unsupported option --db`,
    );
  });

  it("fails a server tool named like a built-in once (the environment's naming)", () => {
    expect(outcome("name-taken")).toEqual(["failed", null, "sandbox", "run", "misconfigured", 1]);
    expect(jobs.get("name-taken")?.failure?.message).toMatch(/offers a tool named "python"/);
  });

  it("retries a server that crashes after its handshake worked, as infrastructure", () => {
    expect(outcome("crash-after-handshake")).toEqual(["failed", null, "sandbox", "run", null, MAX_ATTEMPTS]);
    expect(jobs.get("crash-after-handshake")?.failure?.message).toMatch(
      /MCP server "fixture" did not start: it exited with code 3 during tools\/list; its stderr ends: fixture crashing while listing/,
    );
  });

  it("calls a server that never answers the handshake infrastructure (a start_failed sandbox failure)", async () => {
    const sandbox = await fixture.runtime.create({});
    try {
      const opening = createMcpToolProvider().open(
        sandbox,
        [{ name: "mute", command: "sleep", args: ["600"], env: {} }],
        { signal: new AbortController().signal, timeoutMs: 2_000 },
      );
      const error = await opening.then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(FailureError);
      expect(failureOf(error)).toMatchObject({
        kind: "sandbox-error",
        cause: "infrastructure",
        reason: "start_failed",
        message: 'MCP server "mute" did not start: no answer to initialize within 2000 ms',
      });
    } finally {
      await sandbox.close();
    }
  }, 120_000);
});
