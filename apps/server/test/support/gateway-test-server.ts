// The composed server with the in-process simulator (the labelled test double for a GPU model)
// as its one backend, no agent handlers: for tests that call the per-job gateway over real HTTP.
import { type RunningSimulator, type SimulatorOptions, startSimulator } from "@raas/simulator";
import { type RunningServer, startServer } from "../../src/server";

export interface GatewayTestServer {
  running: RunningServer;
  simulator: RunningSimulator;
  /** A running job with a gateway session: its id and the session's base URL (without `/v1`). */
  openJob(): Promise<{ jobId: string; root: string }>;
  close(): Promise<void>;
}

/** Starts the simulator playing `policy` at zero time per token, and the server over it. */
export async function startGatewayTestServer(policy: SimulatorOptions["policy"]): Promise<GatewayTestServer> {
  const simulator = await startSimulator({ policy, latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 } });
  const running = await startServer({
    port: 0,
    logLevel: "silent",
    agentHandlers: false,
    inference: { backends: [{ kind: "vllm" as const, baseUrl: simulator.url, modelName: null }] },
  });
  return {
    running,
    simulator,
    async openJob() {
      const { job } = await running.engine.submitJob({
        kind: "sleep",
        payload: { initMs: 0, runMs: 600_000 },
      });
      const session = running.gateway.openSession(job.id);
      return { jobId: job.id, root: `${running.url}/gateway/${session.token}` };
    },
    async close() {
      await running.close({ graceMs: 0 });
      await simulator.close();
    },
  };
}
