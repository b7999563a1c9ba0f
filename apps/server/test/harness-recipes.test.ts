// Harness recipes end to end: a real agent CLI, installed from npm by the recipe's install cache,
// runs inside a real bubblewrap sandbox with no network, reaches the job's gateway through the
// loopback forwarder and the host's socket bridge in the API shape it speaks, and the simulator
// (the labelled test double for a GPU model) answers. The scripted answer is a plain final text
// (no tool call), so the CLI finishes after one model call and the swe grader sees an empty patch.
// A CLI that cannot be installed fails the test with npm's words, never a skip.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SWE_INSTANCES, type SweFixtureServer, startSweFixtureServer } from "./support/swe-fixture-server";

const FINAL_TEXT = "I looked at the repository and there is nothing to change.";

describe("harness recipes: real CLIs through the gateway", () => {
  let fixture: SweFixtureServer;

  beforeAll(async () => {
    fixture = await startSweFixtureServer({
      adminToken: "harness-recipes-admin",
      name: "server-harness-recipes",
      policy: { kind: "scripted", default: { steps: [{ content: FINAL_TEXT }] } },
    });
  }, 60_000);

  afterAll(async () => {
    await fixture?.close();
  });

  // Each CLI offers its own shell tool: proof that the request came from that CLI.
  it.each([
    { recipe: "codex", shellTool: "exec_command" },
    { recipe: "claude-code", shellTool: "Bash" },
    { recipe: "qwen-code", shellTool: "run_shell_command" },
    { recipe: "opencode", shellTool: "bash" },
  ])(
    "$recipe runs headless against the gateway and finishes",
    async ({ recipe, shellTool }) => {
      const { running } = fixture;
      const [instance] = SWE_INSTANCES;
      const { job } = await running.engine.submitJob({
        kind: "harness",
        payload: { task: { instance }, recipe, timeoutMs: 120_000 },
      });
      const { jobs } = await running.engine.waitForJobs([job.id], { timeoutMs: 900_000 });
      const [done] = jobs;
      expect(done?.failure).toBeNull();
      expect(done).toMatchObject({ status: "completed", reward: 0 });
      expect(done?.result).toMatchObject({ resolved: false, emptyPatch: true });
      const calls = await running.gateway.listCalls(job.id);
      expect(calls.length).toBeGreaterThanOrEqual(1);
      const offered = calls.flatMap((call) =>
        call.tools.map((tool) => (tool as { function?: { name?: string } }).function?.name),
      );
      expect(offered).toContain(shellTool);
      // The CLI got the simulator's answer and printed it as its final text.
      const { agent } = (done?.result ?? {}) as { agent?: { finalContent?: string } };
      expect(agent?.finalContent).toContain(FINAL_TEXT);
      const traces = await running.gateway.buildTraces(job.id);
      expect(traces.certificate.callCount).toBe(calls.length);
    },
    900_000,
  );
});
