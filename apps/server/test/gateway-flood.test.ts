// One sandbox cannot starve the server: a harness that floods its gateway socket with thousands
// of half-sent POSTs from three processes (as one did: 198 → 19,999 of 20,000 descriptors) runs
// in a real bubblewrap sandbox beside two ordinary harness jobs in sandboxes of their own. The
// bridge keeps the flood to its connection cap and closes the excess on accept, the half-sent
// requests it let in time out, both are counted on /metrics, the other jobs' gateway calls all
// succeed, and this process's descriptor table (the server runs in it) stays bounded.
import { readdirSync } from "node:fs";
import type { Sandbox } from "@raas/engine";
import { buildSwePolicyConfig } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../src/server";
import {
  expectExampleHarnessTraces,
  SWE_INSTANCES as INSTANCES,
  type SweFixtureServer,
  startSweFixtureServer,
} from "./support/swe-fixture-server";

const ADMIN = "flood-admin";
const SOLVED = INSTANCES.slice(0, 2);
const PROCESSES = 3;
const CONNECTIONS_PER_PROCESS = 1_500;
/** The flood holds at least this long (past the bridge's 30 s request timeout), then until told to stop. */
const MIN_HOLD_SEC = 35;
const STOP_FILE = "flood-stop";
/**
 * Descriptors the server may gain during the flood: one capped bridge (32 connections, each with
 * an upstream one) and three jobs' sandboxes. Measured: 95 (under load); 13,517 with no caps.
 */
const MAX_FD_GROWTH = 500;

// Runs as the harness: finds the bridge's socket in the forwarder's argv (its parent), then three
// processes each open connections to it, send POST headers promising a body that never comes,
// and hold them until the test writes the stop file. Connections the host closes are dropped.
const FLOOD = `
import os, socket, sys, time
args = open(f"/proc/{os.getppid()}/cmdline", "rb").read().split(b"\\0")
path = args[args.index(b"--socket") + 1].decode()
half = (b"POST /v1/chat/completions HTTP/1.1\\r\\nhost: x\\r\\ncontent-type: application/json\\r\\n"
        b"content-length: 1000000\\r\\n\\r\\n{\\"messages\\": [")
children = []
for _ in range(${PROCESSES}):
    pid = os.fork()
    if pid == 0:
        held = []
        for _ in range(${CONNECTIONS_PER_PROCESS}):
            # Blocking: a connect waits in the listen backlog until the host accepts it.
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(path)
                s.sendall(half)
                held.append(s)
            except OSError:
                s.close()
        started = time.time()
        while time.time() - started < ${MIN_HOLD_SEC} or not os.path.exists("/workspace/${STOP_FILE}"):
            time.sleep(0.5)
        os._exit(0)
    children.append(pid)
for pid in children:
    os.waitpid(pid, 0)
print("flood over")
`;

function openDescriptors(): number {
  return readdirSync("/proc/self/fd").length;
}

/** One sample of `/metrics`, e.g. raas_gateway_refusals_total{reason="bridge_connections"}; 0 when absent. */
async function refusals(running: RunningServer, reason: string): Promise<number> {
  const text = await fetch(`${running.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } }).then(
    (res) => res.text(),
  );
  const line = text
    .split("\n")
    .find((row) => row.startsWith(`raas_gateway_refusals_total{reason="${reason}"}`));
  return line === undefined ? 0 : Number(line.split(" ").at(-1));
}

describe("gateway: one sandbox's flood does not starve the server", () => {
  let fixture: SweFixtureServer;
  let running: RunningServer;

  beforeAll(async () => {
    const policy = buildSwePolicyConfig(INSTANCES, new Set(SOLVED.map((instance) => instance.instance_id)));
    fixture = await startSweFixtureServer({ adminToken: ADMIN, name: "server-flood", policy });
    running = fixture.running;
  }, 60_000);

  afterAll(async () => {
    await fixture?.close();
  });

  it("keeps the flood to its bridge's cap while the other jobs' gateway calls succeed", async () => {
    const baseline = openDescriptors();
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, openDescriptors());
    }, 25);
    try {
      const sandboxOfJob = new Map<string, string>();
      running.sandboxRuntime.onEvent((event) => {
        if (event.jobId) sandboxOfJob.set(event.jobId, event.sandboxId);
      });
      const [flooded] = INSTANCES.filter((instance) => !SOLVED.includes(instance));
      const { job: attacker } = await running.engine.submitJob({
        kind: "harness",
        payload: { task: { instance: flooded }, command: ["python3", "-c", FLOOD], timeoutMs: 300_000 },
      });
      // The flood is under way once the bridge refuses (or, with no cap, the descriptors climb).
      for (let waited = 0; waited < 1_200; waited += 1) {
        if ((await refusals(running, "bridge_connections")) > 0 || openDescriptors() - baseline > 2_000)
          break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const submitted = await Promise.all(
        SOLVED.map((instance) =>
          running.engine.submitJob({ kind: "harness", payload: { task: { instance }, timeoutMs: 300_000 } }),
        ),
      );
      const ids = submitted.map(({ job }) => job.id);
      const { jobs } = await running.engine.waitForJobs(ids, { timeoutMs: 600_000 });
      for (const job of jobs) {
        expect(job.failure).toBeNull();
        expect(job).toMatchObject({ status: "completed", reward: 1, trainable: true });
        expectExampleHarnessTraces(await running.gateway.buildTraces(job.id));
      }
      // The other jobs finished while the flood still held its connections; now it may stop.
      expect(await running.engine.getJob(attacker.id)).toMatchObject({ status: "active", stage: "run" });
      const open = (running.sandboxRuntime as unknown as { openSandboxes: Sandbox[] }).openSandboxes;
      const floodSandbox = open.find((sandbox) => sandbox.id === sandboxOfJob.get(attacker.id));
      await floodSandbox?.writeFile(STOP_FILE, "stop");
      const { jobs: ended } = await running.engine.waitForJobs([attacker.id], { timeoutMs: 600_000 });
      // The flood was the policy's program: its job ends like any harness that changed nothing.
      expect(ended[0]).toMatchObject({ status: "completed", reward: 0 });
    } finally {
      clearInterval(sampler);
    }
    expect(peak - baseline, `descriptors: ${baseline} at the start, ${peak} at most`).toBeLessThanOrEqual(
      MAX_FD_GROWTH,
    );
    // Nearly every flood connection was closed on accept; those let in timed out unfinished.
    expect(await refusals(running, "bridge_connections")).toBeGreaterThan(
      PROCESSES * CONNECTIONS_PER_PROCESS - 100,
    );
    expect(await refusals(running, "bridge_request_timeout")).toBeGreaterThan(0);
  }, 900_000);
});
