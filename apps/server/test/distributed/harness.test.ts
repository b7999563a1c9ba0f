import { afterEach, describe, expect, it } from "vitest";
import { Deployment, submitSleepJobs, until } from "./support/deployment";
import { descendantsOf, isRunning } from "./support/process-tree";

let deployment: Deployment | null = null;
afterEach(async () => {
  await deployment?.dispose();
  deployment = null;
});

// The fault tests' harness on its own: a distributed server (private Redis, fresh schema) as a
// child process running sleep jobs with its own pools; the bus ledger and the store agree.
describe("distributed test harness", () => {
  it("runs jobs through a server process; one terminal event and state each; kill -9 by pid", async () => {
    deployment = await Deployment.start();
    const server = await deployment.startServer({ RAAS_SERVER_POOLS: "init=4,run=4,eval=4" });
    const ids = await submitSleepJobs(server, 8, { initMs: 20, runMs: 20, evalMs: 20 });
    const ledger = deployment.ledger;
    await until(() => ids.every((id) => ledger.terminalEvents(id).length > 0), "every job's terminal event");
    for (const job of await deployment.storedJobs(ids)) expect(job.status).toBe("completed");
    for (const id of ids) expect(ledger.terminalEvents(id)).toHaveLength(1);
    expect(descendantsOf(process.pid).map((p) => p.pid)).toContain(server.proc.pid);
    const exit = await server.proc.killHard();
    expect(exit.signal).toBe("SIGKILL");
    expect(isRunning(server.proc.pid)).toBe(false);
  });
});
