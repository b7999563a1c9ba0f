// A Harbor task that declares an MCP server (`[[environment.mcp_servers]]`, stdio) end to end:
// the loader maps it into the job's `mcp` → real bubblewrap sandboxes → the server, a file of the
// task's environment/, started inside the agent's sandbox → the agent loop in the Qwen3 format →
// the in-process simulator (scripted: it calls the server's `lookup` tool, or does not) → the
// task's tests/test.sh in a fresh sandbox.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { harborJobRequest, loadHarborDataset } from "@raas/handlers";
import { createQwen3ChatFormat } from "@raas/inference";
import type { TJob } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TPolicyConfigInput } from "../src/index";
import { type RolloutFixture, startRolloutFixture } from "./support/rollout-fixture";

const TASK_DIR = fileURLToPath(
  new URL("../../../packages/handlers/test/fixtures/harbor-mcp-lookup/", import.meta.url),
);

const call = (name: string, args: Record<string, unknown> = {}) => ({
  toolCalls: [{ name, arguments: args }],
});
const SUBMIT = call("submit");

describe("a Harbor task's MCP server through the simulator", () => {
  const chatFormat = createQwen3ChatFormat();
  let fixture: RolloutFixture;
  const jobs = new Map<string, TJob>();
  const scratch = mkdtempSync(join(tmpdir(), "raas-harbor-mcp-"));

  beforeAll(async () => {
    const [loaded] = await loadHarborDataset(TASK_DIR);
    // The same task with a Dockerfile that leaves tools/ out of the workdir: the server's script
    // never reaches the sandbox.
    const uncopied = join(scratch, "uncopied");
    cpSync(TASK_DIR, uncopied, { recursive: true });
    writeFileSync(join(uncopied, "environment/Dockerfile"), "FROM python:3.12-slim\nWORKDIR /app\n");
    const [withoutServer] = await loadHarborDataset(uncopied);
    if (loaded === undefined || withoutServer === undefined) throw new Error(`no task in ${TASK_DIR}`);
    const tasks = {
      // Asks the server, then writes what it said.
      "lookup-solve": {
        steps: [
          call("lookup", { sku: "A-204" }),
          call("bash", { command: "echo BIN-7Q2 > /workspace/answer.txt" }),
          SUBMIT,
        ],
      },
      // Guesses without asking.
      "lookup-skip": { steps: [call("bash", { command: "echo BIN-03C > /workspace/answer.txt" }), SUBMIT] },
      // Asks about a SKU the catalog lacks: the server's error is the model's to read.
      "lookup-unknown": { steps: [call("lookup", { sku: "Z-999" }), SUBMIT] },
      "lookup-uncopied": { steps: [SUBMIT] },
    };
    fixture = await startRolloutFixture({
      policy: { kind: "scripted", tasks } as TPolicyConfigInput,
      maxAttempts: 1,
    });
    const submitted = await fixture.engine.submitJobs([
      ...["lookup-solve", "lookup-skip", "lookup-unknown"].map((taskId) =>
        harborJobRequest(loaded, { taskId }),
      ),
      harborJobRequest(withoutServer, { taskId: "lookup-uncopied" }),
    ]);
    const { jobs: done } = await fixture.engine.waitForJobs(
      submitted.map((s) => s.job.id),
      { timeoutMs: 600_000 },
    );
    for (const job of done) jobs.set((job.payload as { taskId: string }).taskId, job);
  }, 700_000);

  afterAll(async () => {
    await fixture?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const outcome = (taskId: string) => {
    const job = jobs.get(taskId);
    return [job?.status, job?.reward, job?.failure?.message ?? null];
  };
  const toolCallsOf = async (taskId: string) =>
    (await fixture.engine.getTrajectory(jobs.get(taskId)?.id ?? "")).toolCalls.map((c) => [
      c.name,
      c.isError,
      String(c.output).trim(),
    ]);

  it("offers the server's lookup tool beside bash, python and editor", async () => {
    const { turns } = await fixture.engine.getTrajectory(jobs.get("lookup-solve")?.id ?? "");
    const prompt = chatFormat.decode(turns[0]?.promptIds ?? []);
    const offered = [...prompt.matchAll(/^\{"type": "function", "function": (.*)\}$/gm)].map(
      (m) => (JSON.parse(m[1] as string) as { name: string }).name,
    );
    expect(offered).toEqual(["bash", "python", "editor", "lookup", "submit"]);
  });

  it("earns 1 for the agent that asks the server, 0 for one that does not", async () => {
    expect(outcome("lookup-solve")).toEqual(["completed", 1, null]);
    expect(await toolCallsOf("lookup-solve")).toEqual([
      ["lookup", false, "SKU A-204 is stored in bin BIN-7Q2"],
      ["bash", false, ""],
    ]);
    expect(outcome("lookup-skip")).toEqual(["completed", 0, null]);
    expect(outcome("lookup-unknown")).toEqual(["completed", 0, null]);
    expect(await toolCallsOf("lookup-unknown")).toEqual([["lookup", true, "no item with SKU Z-999"]]);
  });

  it("fails a task whose server's script is not in the workspace as the environment's mistake, not the policy's", () => {
    const job = jobs.get("lookup-uncopied");
    expect([job?.status, job?.reward, job?.failure?.kind, job?.attempts]).toEqual([
      "failed",
      null,
      "sandbox",
      1,
    ]);
    expect(job?.failure?.message).toMatch(
      /MCP server "catalog" is misconfigured .*\/workspace\/tools\/catalog_server\.py/,
    );
  });

  it("records token-exact trajectories", () => {
    for (const job of [...jobs.values()].filter((one) => one.status === "completed"))
      expect((job.result as { tokenDrift: { isConsistent: boolean } }).tokenDrift.isConsistent).toBe(true);
  });
});
