import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isTerminalStatus, type TJob } from "@raas/shared";
import { type RunningSimulator, startSimulator, type TPolicyConfigInput } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Deployment, type ServerHandle, until } from "./support/deployment";
import { descendantsOf, isRunning } from "./support/process-tree";
import { WorkerProcesses } from "./support/worker-processes";

const DATA = fileURLToPath(new URL("../../../../packages/handlers/data/", import.meta.url));
const mathTasks = (ids: string[]) =>
  readFileSync(join(DATA, "math.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as { taskId: string })
    .filter((task) => ids.includes(task.taskId));

// kill -9 of a worker process while its jobs are in RUN with real bubblewrap sandboxes (every
// simulator turn takes 2 s, so RUN lasts): the sandboxes die with the worker (bwrap runs with
// --die-with-parent, the sandbox's processes in its pid namespace), and the job completes on the
// other worker from INIT, reported once.
describe("kill -9 of a worker holding bubblewrap sandboxes", () => {
  let deployment: Deployment;
  let server: ServerHandle;
  let workers: WorkerProcesses;
  let simulator: RunningSimulator;
  beforeAll(async () => {
    const policy = JSON.parse(readFileSync(join(DATA, "simulator/math-code-stem.policy.json"), "utf8"));
    simulator = await startSimulator({
      policy: policy as TPolicyConfigInput,
      seed: 7,
      latency: { overheadMs: 2_000 },
    });
    deployment = await Deployment.start();
    server = await deployment.startServer();
    workers = new WorkerProcesses(deployment);
  }, 120_000);
  afterAll(async () => {
    await workers?.stopAll();
    await deployment?.dispose();
    await simulator?.close();
  });

  it("leaves no process of its sandboxes behind; its job completes elsewhere, once", async () => {
    const env = { RAAS_BACKENDS: `vllm=${simulator.url}#Qwen/Qwen3-8B` };
    await workers.start(2, "init=2,run=2,eval=2", env);
    const jobs = mathTasks(["math-001", "math-016"]).map((payload) => ({ kind: "math", payload }));
    const { results } = await server.rest<{ results: Array<{ job: TJob }> }>("/api/v1/jobs/batch", { jobs });
    const ids = results.map((result) => result.job.id);
    const { ledger } = deployment;
    let victim = "";
    await until(() => {
      victim =
        ids.find((id) => ledger.latest(id)?.status === "active" && ledger.latest(id)?.stage === "run") ?? "";
      return victim !== "";
    }, "a job active in RUN");
    const store = await deployment.store();
    const holder = workers.byId((await store.readJob(victim))?.handoff?.workerId ?? "");
    if (!holder) throw new Error(`no worker process holds ${victim}`);
    const below = descendantsOf(holder.pid);
    expect(below.filter((p) => p.comm === "bwrap").length).toBeGreaterThan(0);

    await holder.kill();
    await until(
      () => below.every((p) => !isRunning(p.pid)),
      "the killed worker's sandbox processes to end",
      30_000,
    );

    await until(
      async () => (await deployment.storedJobs(ids)).every((job) => isTerminalStatus(job.status)),
      "every job in a final state",
      240_000,
    );
    const after = (await store.readJob(victim))!;
    expect(after.record).toMatchObject({ status: "completed" });
    expect(after.record.attempts).toBeGreaterThanOrEqual(2);
    expect(after.handoff?.workerId).not.toBe(holder.id);
    await until(() => ids.every((id) => ledger.terminalEvents(id).length > 0), "every terminal event");
    for (const id of ids) expect(ledger.terminalEvents(id), id).toHaveLength(1);
  }, 300_000);
});
