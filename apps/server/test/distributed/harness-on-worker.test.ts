import { join } from "node:path";
import { isTerminalStatus, type TGatewayTraces, type TJob } from "@raas/shared";
import { buildSwePolicyConfig, type RunningSimulator, startSimulator } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  expectExampleHarnessTraces,
  SWE_INSTANCES as INSTANCES,
  SWE_DATA,
} from "../support/swe-fixture-server";
import { Deployment, type ServerHandle, until } from "./support/deployment";
import { WorkerProcesses } from "./support/worker-processes";

const SOLVED = INSTANCES.slice(0, 1);

// A `harness` job in a distributed deployment: the server (API only, no pools) takes it, a worker
// process runs it — the shipped example Python SWE agent in a bubblewrap sandbox, reaching the
// gateway the worker hosts for its own jobs through the sandbox's socket bridge — and the calls
// the worker records in PostgreSQL are what the server serves as the job's certified traces.
// Server and worker are child processes on a private Redis and a fresh schema; the simulator (the
// labelled test double for a GPU model) runs in this process.
describe("harness jobs on a worker", () => {
  let deployment: Deployment;
  let server: ServerHandle;
  let workers: WorkerProcesses;
  let simulator: RunningSimulator;

  beforeAll(async () => {
    const policy = buildSwePolicyConfig(INSTANCES, new Set(SOLVED.map((instance) => instance.instance_id)));
    simulator = await startSimulator({ policy, latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 } });
    deployment = await Deployment.start();
    const env = { RAAS_SWE_REPOS_DIR: join(SWE_DATA, "bundles"), RAAS_BACKENDS: simulator.url };
    server = await deployment.startServer(env);
    workers = new WorkerProcesses(deployment);
    await workers.start(1, "init=2,run=2,eval=2", env);
  }, 300_000);

  afterAll(async () => {
    await workers?.stopAll();
    await deployment?.dispose();
    await simulator?.close();
  });

  it("runs the example harness on the worker; the server serves its certified traces", async () => {
    const [instance] = SOLVED;
    const { results } = await server.rest<{ results: Array<{ job: TJob }> }>("/api/v1/jobs/batch", {
      jobs: [{ kind: "harness", payload: { task: { instance }, timeoutMs: 300_000 } }],
    });
    const id = results[0]!.job.id;
    await until(
      async () => (await deployment.storedJobs([id])).every((job) => isTerminalStatus(job.status)),
      "the harness job in a final state",
      600_000,
    );
    const [job] = await deployment.storedJobs([id]);
    expect(job?.failure ?? null).toBeNull();
    expect(job).toMatchObject({ status: "completed", reward: 1, trainable: true });
    expect(job?.result).toMatchObject({ resolved: true, emptyPatch: false });

    const traces = await server.rest<TGatewayTraces>(`/api/v1/jobs/${id}/gateway-traces`);
    expectExampleHarnessTraces(traces);
    // The server runs no pool: the worker held the job's sandbox, ran it and recorded its calls.
    const worker = workers.started[0]!;
    const store = await deployment.store();
    expect((await store.readJob(id))?.handoff?.workerId).toBe(worker.id);
  }, 700_000);
});
