// `npm run bench -- gateway [--sessions 64] [--calls 6] [--decode-ms-per-token 10] [--clients process|inline]`:
// the inference gateway's overhead per call over a direct call of the routed pool, and the time to
// build a trajectory's traces. The server (no agent handlers) runs in this process; the harnesses
// in a process of their own (`bench/gateway-harness-client.ts`, as harnesses run in sandboxes;
// `--clients inline` puts them here); the simulator (the labelled test double) in another, as a
// real backend would.
//
// Overhead per call = the harness's wall time of the gateway call (HTTP to the server, Qwen3
// template + tokenizer, routed pool → backend, tool-call parsing, recording, the JSON answer) minus
// the wall time of the same generation asked of the pool directly (the same prompt ids, the same
// sampling, routed to the same backend), with the two arms at the same concurrency: `--sessions`
// conversations of `--calls` sequential calls each, all at once. Paired per call (job, seq).
//
// Two phases: `paced`, where the simulator decodes at `--decode-ms-per-token` (generation takes
// time, as on a GPU, so 64 sessions do not all sit in the gateway at once) — the headline
// `overheadP50Ms`; and `saturated`, a zero-time simulator, where every session is always waiting on
// the server's CPU, so the per-call difference is ~sessions × the gateway's CPU per call (a
// throughput figure on a shared 2-core machine, reported as `saturatedOverheadP50Ms`).
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createRaasLogger } from "@raas/compose";
import { buildGatewayTraces } from "@raas/engine";
import { startServer } from "@raas/server";
import type { TGatewayCallRecord } from "@raas/shared";
import type { Bench, BenchRow } from "./bench.types";
import { type HarnessSession, runConversations } from "./gateway-harness-client";
import { median, percentile } from "./stats";

const TARGET_OVERHEAD_P50_MS = 2;
/** The harnesses in a process of their own (as in sandboxes), or in this one (`--clients inline`). */
async function runHarnesses(
  sessions: HarnessSession[],
  calls: number,
  where: "process" | "inline",
): Promise<Record<string, number>> {
  if (where === "inline") return runConversations(sessions, calls);
  const child = spawn(process.execPath, ["--import", "tsx", join(root, "bench/gateway-harness-client.ts")], {
    cwd: root,
    stdio: ["pipe", "pipe", "inherit"],
  });
  child.stdin.end(JSON.stringify({ sessions, calls }));
  let output = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    output += chunk;
  });
  const code = await new Promise<number | null>((done) => child.once("exit", done));
  if (code !== 0) throw new Error(`the harness process exited with ${code}`);
  return (JSON.parse(output) as { wallMs: Record<string, number> }).wallMs;
}

const root = resolve(import.meta.dirname, "..");

/** The simulator in a process of its own (zero prefill/decode time), as a real backend would be. */
async function startSimulatorProcess(maxConcurrency: number, decodeMsPerToken: number) {
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
      String(decodeMsPerToken),
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

interface PhaseResult {
  gatewayMs: number[];
  directMs: number[];
  /** Per call: gateway wall − direct wall of the same generation. */
  overheadMs: number[];
  generationMs: number[];
  directGenerationMs: number[];
  serverSideMs: number[];
  /** The server process's CPU time (user + system) per call of each arm, in ms (with `--clients inline` the gateway arm's includes the harnesses'). */
  gatewayCpuMsPerCall: number;
  directCpuMsPerCall: number;
  /** Direct generations that sampled exactly the ids the gateway's did (same work in both arms). */
  sameResponses: number;
  records: Map<string, TGatewayCallRecord[]>;
}

const cpuMsSince = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

type Server = Awaited<ReturnType<typeof startServer>>;

/** Both arms on one backend: the gateway over HTTP, then the same generations straight into the pool. */
async function runPhase(
  server: Server,
  backendUrl: string,
  options: { sessions: number; callsPerSession: number; backendId: string; clients: "process" | "inline" },
): Promise<PhaseResult> {
  const { sessions, callsPerSession, backendId } = options;
  server.inference.registerBackend({
    id: backendId,
    kind: "vllm",
    baseUrl: backendUrl,
    modelName: server.defaultModelName,
    maxConcurrency: sessions * 4,
  });
  try {
    const submit = () => server.engine.submitJob({ kind: "sleep", payload: { initMs: 0, runMs: 600_000 } });
    const sessionsOf = (jobIds: string[], firstIndex: number): HarnessSession[] =>
      jobIds.map((jobId, i) => ({
        key: jobId,
        url: `${server.url}/gateway/${server.gateway.openSession(jobId).token}/v1/chat/completions`,
        index: firstIndex + i,
      }));
    const jobs = await Promise.all(Array.from({ length: sessions }, submit));
    // Warm-up on jobs of their own (tokenizer, JIT, connections), not measured.
    const warmUps = await Promise.all(Array.from({ length: 4 }, submit));
    await runHarnesses(
      sessionsOf(
        warmUps.map(({ job }) => job.id),
        -100,
      ),
      callsPerSession,
      options.clients,
    );
    const gatewayCpu = process.cpuUsage();
    const wallMsByKey = await runHarnesses(
      sessionsOf(
        jobs.map(({ job }) => job.id),
        0,
      ),
      callsPerSession,
      options.clients,
    );
    const gatewayCpuMs = cpuMsSince(gatewayCpu);
    const wallMs = new Map(Object.entries(wallMsByKey));
    const records = new Map<string, TGatewayCallRecord[]>();
    for (const { job } of jobs) records.set(job.id, await server.gateway.listCalls(job.id));

    // Direct: each recorded call's prompt ids straight into the pool, at the same concurrency.
    const directMs = new Map<string, number>();
    const directGenerationMs: number[] = [];
    let sameResponses = 0;
    const directCpu = process.cpuUsage();
    await Promise.all(
      [...records.entries()].map(async ([jobId, calls]) => {
        for (const call of calls) {
          const startedAt = performance.now();
          const result = await server.inference.generate({
            jobId: `direct-${jobId}`,
            promptIds: call.promptIds,
            sampling: { maxTokens: 512, stopTokenIds: [151_645, 151_643] },
          });
          directMs.set(`${jobId}:${call.seq}`, performance.now() - startedAt);
          directGenerationMs.push(result.latencyMs);
          const sampled = result.responseIds;
          if (
            sampled.length === call.responseIds.length &&
            sampled.every((id, i) => id === call.responseIds[i])
          )
            sameResponses += 1;
        }
      }),
    );
    const directCpuMs = cpuMsSince(directCpu);
    const all = [...records.values()].flat();
    const key = (record: TGatewayCallRecord) => `${record.jobId}:${record.seq}`;
    const gatewayMs = all.map((record) => wallMs.get(key(record)) ?? Number.NaN);
    const direct = all.map((record) => directMs.get(key(record)) ?? Number.NaN);
    return {
      gatewayMs,
      directMs: direct,
      overheadMs: gatewayMs.map((ms, i) => ms - (direct[i] as number)),
      generationMs: all.map((record) => record.latencyMs),
      directGenerationMs,
      serverSideMs: all.map((record) => record.overheadMs),
      gatewayCpuMsPerCall: gatewayCpuMs / all.length,
      directCpuMsPerCall: directCpuMs / all.length,
      sameResponses,
      records,
    };
  } finally {
    server.inference.removeBackend(backendId);
  }
}

const bench: Bench = {
  name: "gateway",
  description: "gateway overhead per call over a direct pool call, and trace building per trajectory",
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        sessions: { type: "string", default: "64" },
        calls: { type: "string", default: "6" },
        "decode-ms-per-token": { type: "string", default: "10" },
        clients: { type: "string", default: "process" },
      },
    });
    const sessions = Number(values.sessions);
    const callsPerSession = Number(values.calls);
    const decodeMsPerToken = Number(values["decode-ms-per-token"]);
    const clients = values.clients === "inline" ? "inline" : "process";
    const paced = await startSimulatorProcess(sessions * 4, decodeMsPerToken);
    const zero = await startSimulatorProcess(sessions * 4, 0);
    const server = await startServer({ port: 0, agentHandlers: false, logger: createRaasLogger("warn") });
    try {
      const pacedPhase = await runPhase(server, paced.url, {
        sessions,
        callsPerSession,
        backendId: "sim-paced",
        clients,
      });
      const saturated = await runPhase(server, zero.url, {
        sessions,
        callsPerSession,
        backendId: "sim-zero",
        clients,
      });

      const traceMs: number[] = [];
      let certified = 0;
      for (const calls of pacedPhase.records.values()) {
        const startedAt = performance.now();
        const traces = buildGatewayTraces(calls);
        traceMs.push(performance.now() - startedAt);
        if (traces.certificate.isCertified) certified += 1;
      }
      const overheadP50 = median(pacedPhase.overheadMs);
      const rows = [
        row(`paced: gateway call (HTTP, client wall)`, pacedPhase.gatewayMs),
        row(`paced: direct pool call (same generation)`, pacedPhase.directMs),
        row(`paced: overhead (gateway - direct, per call)`, pacedPhase.overheadMs),
        row(`paced: pool generation inside the gateway call`, pacedPhase.generationMs),
        row(`paced: pool generation of the direct call`, pacedPhase.directGenerationMs),
        row(`paced: gateway's own time in the server`, pacedPhase.serverSideMs),
        row(`saturated: gateway call (HTTP, client wall)`, saturated.gatewayMs),
        row(`saturated: direct pool call (same generation)`, saturated.directMs),
        row(`saturated: overhead (gateway - direct, per call)`, saturated.overheadMs),
        row(`saturated: gateway's own time in the server`, saturated.serverSideMs),
        row("trace building per trajectory", traceMs, { callsPerTrajectory: callsPerSession }),
      ];
      return {
        bench: "gateway",
        description: bench.description,
        rows,
        summary: {
          overheadP50Ms: Number(overheadP50.toFixed(3)),
          overheadP95Ms: Number(percentile(pacedPhase.overheadMs, 95).toFixed(3)),
          serverSideOverheadP50Ms: Number(median(pacedPhase.serverSideMs).toFixed(3)),
          saturatedOverheadP50Ms: Number(median(saturated.overheadMs).toFixed(3)),
          saturatedServerSideOverheadP50Ms: Number(median(saturated.serverSideMs).toFixed(3)),
          pacedCpuMsPerCall: `gateway ${pacedPhase.gatewayCpuMsPerCall.toFixed(3)}, direct ${pacedPhase.directCpuMsPerCall.toFixed(3)}`,
          saturatedCpuMsPerCall: `gateway ${saturated.gatewayCpuMsPerCall.toFixed(3)}, direct ${saturated.directCpuMsPerCall.toFixed(3)}`,
          sameGenerationsInBothArms: `${pacedPhase.sameResponses + saturated.sameResponses}/${pacedPhase.gatewayMs.length + saturated.gatewayMs.length}`,
          targetOverheadP50Ms: TARGET_OVERHEAD_P50_MS,
          meetsTarget: overheadP50 <= TARGET_OVERHEAD_P50_MS,
          traceBuildP50Ms: Number(median(traceMs).toFixed(3)),
          certifiedTrajectories: `${certified}/${pacedPhase.records.size}`,
        },
        config: {
          sessions,
          callsPerSession,
          pacedDecodeMsPerToken: decodeMsPerToken,
          clients,
          saturatedDecodeMsPerToken: 0,
        },
      };
    } finally {
      await server.close({ graceMs: 0 });
      paced.child.kill("SIGTERM");
      zero.child.kill("SIGTERM");
    }
  },
};

export default bench;
