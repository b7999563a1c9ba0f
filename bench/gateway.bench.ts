// `npm run bench -- gateway [--sessions 64] [--calls 6]`: the inference gateway's overhead per call
// over a direct call of the routed pool, and the time to build a trajectory's traces.
// One process: the server (no agent handlers) and the simulator (the labelled test double, zero
// prefill/decode time, so what remains is overhead). `--sessions` jobs each hold a gateway session
// and run a `--calls`-call tool-using conversation over HTTP at once. Per call: the client's wall
// time minus the pool's own generation time (`latencyMs` recorded with the call) is the gateway's
// overhead (HTTP, Qwen3 template + tokenizer, tool-call parsing, recording). Then the same prompt
// ids are replayed straight into the pool at the same concurrency for the direct baseline.
import { spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createRaasLogger } from "@raas/compose";
import { buildGatewayTraces } from "@raas/engine";
import { startServer } from "@raas/server";
import type { TGatewayCallRecord } from "@raas/shared";
import type { Bench, BenchRow } from "./bench.types";
import { median, percentile } from "./stats";

const TARGET_OVERHEAD_P50_MS = 2;
const TOOLS = [
  {
    type: "function",
    function: {
      name: "bash",
      description: "Run a shell command",
      parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
    },
  },
];

function post(agent: Agent, url: URL, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const root = resolve(import.meta.dirname, "..");

/** The simulator in a process of its own (zero prefill/decode time), as a real backend would be. */
async function startSimulatorProcess(maxConcurrency: number) {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      join(root, "apps/simulator/src/main.ts"),
      "--port",
      "0",
      "--prefill-ms-per-token",
      "0",
      "--decode-ms-per-token",
      "0",
      "--max-concurrency",
      String(maxConcurrency),
    ],
    { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
  );
  const url = await new Promise<string>((resolveUrl, reject) => {
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /"url":"([^"]+)"/.exec(stdout);
      if (match) resolveUrl(match[1] as string);
    });
    child.once("exit", (code) => reject(new Error(`simulator exited with ${code}`)));
  });
  return { child, url };
}

const row = (name: string, values: readonly number[], extra: Record<string, number> = {}): BenchRow => ({
  name,
  n: values.length,
  p50Ms: median(values),
  p95Ms: percentile(values, 95),
  p99Ms: percentile(values, 99),
  ...extra,
});

const bench: Bench = {
  name: "gateway",
  description: "gateway overhead per call over a direct pool call, and trace building per trajectory",
  async run(args) {
    const { values } = parseArgs({
      args,
      options: { sessions: { type: "string", default: "64" }, calls: { type: "string", default: "6" } },
    });
    const sessions = Number(values.sessions);
    const callsPerSession = Number(values.calls);
    const simulator = await startSimulatorProcess(sessions * 4);
    const server = await startServer({ port: 0, agentHandlers: false, logger: createRaasLogger("warn") });
    server.inference.registerBackend({
      id: "simulator",
      kind: "vllm",
      baseUrl: simulator.url,
      modelName: server.defaultModelName,
      maxConcurrency: sessions * 4,
    });
    const agent = new Agent({ keepAlive: true, maxSockets: sessions });
    try {
      const jobs = await Promise.all(
        Array.from({ length: sessions }, () =>
          server.engine.submitJob({ kind: "sleep", payload: { initMs: 0, runMs: 600_000 } }),
        ),
      );
      const wallMs = new Map<string, number>();
      const conversation = async (jobId: string, index: number) => {
        const session = server.gateway.openSession(jobId);
        const url = new URL(`${server.url}/gateway/${session.token}/v1/chat/completions`);
        const messages: unknown[] = [
          { role: "system", content: "You are a careful engineer." },
          { role: "user", content: `task_id: bench-gateway-${index}\nList the files.` },
        ];
        for (let call = 0; call < callsPerSession; call += 1) {
          const body = JSON.stringify({ model: "bench", messages, tools: TOOLS, max_tokens: 512 });
          const startedAt = performance.now();
          const response = await post(agent, url, body);
          wallMs.set(`${jobId}:${call}`, performance.now() - startedAt);
          if (response.status !== 200)
            throw new Error(`gateway answered ${response.status}: ${response.text}`);
          const message = JSON.parse(response.text).choices[0].message;
          messages.push(message);
          for (const toolCall of message.tool_calls ?? []) {
            messages.push({ role: "tool", tool_call_id: toolCall.id, content: "a.txt\nb.txt\n" });
          }
        }
      };
      // Warm-up on a job of its own (tokenizer, JIT, connections), not measured.
      const warmUp = await server.engine.submitJob({ kind: "sleep", payload: { initMs: 0, runMs: 600_000 } });
      await conversation(warmUp.job.id, -1);
      wallMs.clear();
      await Promise.all(jobs.map(({ job }, index) => conversation(job.id, index)));
      const byJob = new Map<string, TGatewayCallRecord[]>();
      for (const { job } of jobs) byJob.set(job.id, await server.gateway.listCalls(job.id));
      const records = [...byJob.values()].flat();
      const gatewayMs = records.map((record) => wallMs.get(`${record.jobId}:${record.seq}`) ?? Number.NaN);
      const generationMs = records.map((record) => record.latencyMs);
      // Per call: the client's wall time minus the pool's own generation time.
      const overheadMs = records.map((record, i) => (gatewayMs[i] as number) - record.latencyMs);
      const serverSideMs = records.map((record) => record.overheadMs);

      // Direct: the same prompt ids straight into the pool, same concurrency.
      const directMs: number[] = [];
      await Promise.all(
        [...byJob.entries()].map(async ([jobId, calls]) => {
          for (const call of calls) {
            const startedAt = performance.now();
            await server.inference.generate({
              jobId: `direct-${jobId}`,
              promptIds: call.promptIds,
              sampling: { maxTokens: 512, stopTokenIds: [151_645, 151_643] },
            });
            directMs.push(performance.now() - startedAt);
          }
        }),
      );

      const traceMs: number[] = [];
      let certified = 0;
      for (const { job } of jobs) {
        const calls = byJob.get(job.id) ?? [];
        const startedAt = performance.now();
        const traces = buildGatewayTraces(calls);
        traceMs.push(performance.now() - startedAt);
        if (traces.certificate.isCertified) certified += 1;
      }
      const overheadP50 = median(overheadMs);
      const overheadVsDirect = median(gatewayMs) - median(directMs);
      const rows = [
        row("gateway call (HTTP, client wall)", gatewayMs),
        row("pool generation inside it", generationMs),
        row("gateway overhead (wall - generation)", overheadMs),
        row("gateway's own time in the server", serverSideMs),
        row("direct pool call (same prompts)", directMs),
        row("trace building per trajectory", traceMs, { callsPerTrajectory: callsPerSession }),
      ];
      return {
        bench: "gateway",
        description: bench.description,
        rows,
        summary: {
          overheadP50Ms: Number(overheadP50.toFixed(3)),
          serverSideOverheadP50Ms: Number(median(serverSideMs).toFixed(3)),
          overheadVsDirectP50Ms: Number(overheadVsDirect.toFixed(3)),
          targetOverheadP50Ms: TARGET_OVERHEAD_P50_MS,
          meetsTarget: overheadP50 <= TARGET_OVERHEAD_P50_MS,
          traceBuildP50Ms: Number(median(traceMs).toFixed(3)),
          certifiedTrajectories: `${certified}/${jobs.length}`,
        },
        config: { sessions, callsPerSession, simulatorLatency: "zero" },
      };
    } finally {
      agent.destroy();
      await server.close({ graceMs: 0 });
      simulator.child.kill("SIGTERM");
    }
  },
};

export default bench;
