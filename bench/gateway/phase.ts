// One phase of `npm run bench -- gateway`: the same calls four ways, at the same concurrency, on
// one backend — through the gateway (harness → server → backend); straight from the harness to the
// backend as a token-id completion (the recorded prompt ids: the strict baseline); the same
// conversations straight to the backend's OpenAI chat endpoint (what a harness calls without RaaS:
// the backend renders, tokenizes and parses); and straight into the server's routed pool
// (in-process: no HTTP from the harness at all).

import { vllmCompletionsCodec } from "@raas/inference";
import type { startServer } from "@raas/server";
import type { TGatewayCallRecord } from "@raas/shared";
import { startPassThroughProxy } from "./pass-through-proxy";
import { type HarnessWork, runHarnesses } from "./processes";
import { sessionSeed } from "./session-seed";

type Server = Awaited<ReturnType<typeof startServer>>;

/** Sampling of the direct calls: what the gateway asks for the bench's requests. */
const SAMPLING = { maxTokens: 512, stopTokenIds: [151_645, 151_643] };

export interface PhaseResult {
  /** Per call, in record order: the harness's wall time through the gateway. */
  gatewayMs: number[];
  /** The same call asked of the backend by the harness as a token-id completion (HTTP). */
  backendMs: number[];
  /** The same conversation's call asked of the backend's `/v1/chat/completions` by the harness. */
  backendChatMs: number[];
  /** The same call through a pass-through proxy in the server's process (the floor of an extra hop). */
  proxyMs: number[];
  /** The same generation asked of the routed pool in the server's process (no HTTP from the harness). */
  poolMs: number[];
  /** The pool's generation time inside the gateway call and inside the direct pool call. */
  generationMs: number[];
  poolGenerationMs: number[];
  /** Per call, in record order: its index in its session (0: a new connection, in the start burst). */
  callIndex: number[];
  /** The gateway's own time per call (render, tokenize, route, parse, record). */
  serverSideMs: number[];
  /** Per call: gateway wall − the pool's generation − the gateway's own time (HTTP and waiting). */
  outsideMs: number[];
  /** The server's CPU (user + system) per call in the gateway arm and the direct pool arm, in ms. */
  gatewayCpuMsPerCall: number;
  poolCpuMsPerCall: number;
  /** Calls whose direct backend and direct pool generations sampled exactly the gateway's ids. */
  sameInBackendArm: number;
  sameInPoolArm: number;
  records: Map<string, TGatewayCallRecord[]>;
}

const cpuMsSince = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

const sameIds = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((id, i) => id === b[i]);

export async function runPhase(
  server: Server,
  backendUrl: string,
  options: {
    sessions: number;
    callsPerSession: number;
    backendId: string;
    clients: "process" | "inline";
    /** Unmeasured rounds of conversations first. */
    warmUpRounds: number;
    /** Lines of each tool result (a test log); 0: a two-file listing. */
    toolOutputLines: number;
    /**
     * The first session's index (its task and tool output): phases with different bases hold
     * conversations of their own, not a tokenizer cache's hits of an earlier phase.
     */
    firstSessionIndex: number;
  },
): Promise<PhaseResult> {
  const { sessions, callsPerSession, backendId, clients, warmUpRounds, toolOutputLines, firstSessionIndex } =
    options;
  server.inference.registerBackend({
    id: backendId,
    kind: "vllm",
    baseUrl: backendUrl,
    modelName: server.defaultModelName,
    maxConcurrency: sessions * 4,
  });
  try {
    // As a deployment's sandbox bridge does (`openBridge`): the RUN attempt begins (the job's
    // earlier calls removed, numbering from 0) before its harness makes a call, so no first call
    // asks the store for the job's earlier calls.
    const submit = async () => {
      const { job } = await server.engine.submitJob({
        kind: "sleep",
        payload: { initMs: 0, runMs: 600_000 },
      });
      await server.gateway.startAttempt(job.id);
      return job.id;
    };
    // Each session's seed (`sessionSeed`), which the harness sends too, for the direct arms.
    const seeds = new Map<string, number>();
    const seedFor = (jobId: string, index: number) => {
      seeds.set(jobId, sessionSeed(index));
      return sessionSeed(index);
    };
    const seededSampling = (call: TGatewayCallRecord) => ({ ...SAMPLING, seed: seeds.get(call.jobId) });
    const conversations = (jobIds: string[], firstIndex: number): HarnessWork => ({
      sessions: jobIds.map((jobId, i) => ({
        key: jobId,
        url: `${server.url}/gateway/${server.gateway.openSession(jobId, { settings: { seed: seedFor(jobId, firstIndex + i) }, mode: "override" }).token}/v1/chat/completions`,
        index: firstIndex + i,
      })),
      calls: callsPerSession,
      toolOutputLines,
    });
    const jobs = await Promise.all(Array.from({ length: sessions }, submit));
    // Warm-up rounds on jobs of their own, at the measured concurrency (tokenizer, JIT, a
    // connection per session to the backend), not measured: after one round the first measured
    // repeat was still the slowest of its run (its per-call paths not yet optimized).
    for (let round = 0; round < warmUpRounds; round += 1) {
      const warmUps = await Promise.all(Array.from({ length: sessions }, submit));
      await runHarnesses(conversations(warmUps, firstSessionIndex - sessions * (round + 1)), clients);
    }

    const gatewayCpu = process.cpuUsage();
    const gateway = await runHarnesses(conversations(jobs, firstSessionIndex), clients);
    const gatewayCpuMs = cpuMsSince(gatewayCpu);
    const records = new Map<string, TGatewayCallRecord[]>();
    for (const jobId of jobs) records.set(jobId, await server.gateway.listCalls(jobId));
    const all = [...records.values()].flat();
    const key = (record: TGatewayCallRecord) => `${record.jobId}:${record.seq}`;

    // Straight to the backend from the harness: each recorded prompt as vLLM's token-id completion;
    // then the same bodies through a proxy that only forwards.
    const directTo = (baseUrl: string): HarnessWork => ({
      direct: [...records.entries()].map(([jobId, calls]) => ({
        key: jobId,
        url: `${baseUrl}${vllmCompletionsCodec.path}`,
        bodies: calls.map((call) =>
          JSON.stringify(
            vllmCompletionsCodec.buildRequest(
              { promptIds: call.promptIds, sampling: seededSampling(call) },
              server.defaultModelName,
            ),
          ),
        ),
      })),
    });
    const backend = await runHarnesses(directTo(backendUrl), clients);
    // The same conversations (same tasks, so the same answers) against the backend's chat endpoint.
    const chat = await runHarnesses(
      {
        sessions: jobs.map((jobId, i) => ({
          key: jobId,
          url: `${backendUrl}/v1/chat/completions`,
          index: firstSessionIndex + i,
        })),
        calls: callsPerSession,
        toolOutputLines,
      },
      clients,
    );
    const proxy = await startPassThroughProxy(backendUrl);
    const proxied = await runHarnesses(directTo(proxy.url), clients).finally(() => proxy.close());
    let sameInBackendArm = 0;
    for (const record of all) {
      const answer = backend.answers?.[key(record)];
      if (answer === undefined) continue;
      const parsed = vllmCompletionsCodec.parseResponse(JSON.parse(answer), backendId, {
        promptIds: record.promptIds,
        sampling: seededSampling(record),
      });
      if (sameIds(parsed.responseIds, record.responseIds)) sameInBackendArm += 1;
    }

    // Straight into the pool, in the server's process, at the same concurrency.
    const poolMs = new Map<string, number>();
    const poolGenerationMs = new Map<string, number>();
    let sameInPoolArm = 0;
    const poolCpu = process.cpuUsage();
    await Promise.all(
      [...records.entries()].map(async ([jobId, calls]) => {
        for (const call of calls) {
          const startedAt = performance.now();
          const result = await server.inference.generate({
            jobId: `direct-${jobId}`,
            promptIds: call.promptIds,
            sampling: seededSampling(call),
          });
          poolMs.set(key(call), performance.now() - startedAt);
          poolGenerationMs.set(key(call), result.latencyMs);
          if (sameIds(result.responseIds, call.responseIds)) sameInPoolArm += 1;
        }
      }),
    );
    const poolCpuMs = cpuMsSince(poolCpu);
    const gatewayMs = all.map((record) => gateway.wallMs[key(record)] ?? Number.NaN);
    return {
      gatewayMs,
      backendMs: all.map((record) => backend.wallMs[key(record)] ?? Number.NaN),
      backendChatMs: all.map((record) => chat.wallMs[key(record)] ?? Number.NaN),
      proxyMs: all.map((record) => proxied.wallMs[key(record)] ?? Number.NaN),
      poolMs: all.map((record) => poolMs.get(key(record)) ?? Number.NaN),
      generationMs: all.map((record) => record.latencyMs),
      poolGenerationMs: all.map((record) => poolGenerationMs.get(key(record)) ?? Number.NaN),
      serverSideMs: all.map((record) => record.overheadMs),
      callIndex: all.map((record) => record.seq),
      outsideMs: all.map((record, i) => (gatewayMs[i] as number) - record.latencyMs - record.overheadMs),
      gatewayCpuMsPerCall: gatewayCpuMs / all.length,
      poolCpuMsPerCall: poolCpuMs / all.length,
      sameInBackendArm,
      sameInPoolArm,
      records,
    };
  } finally {
    server.inference.removeBackend(backendId);
  }
}

/** Repeats of one phase as one: every call of each, in order (CPU per call weighted by calls). */
export function mergePhases(phases: readonly PhaseResult[]): PhaseResult {
  const calls = phases.map((phase) => phase.gatewayMs.length);
  const total = calls.reduce((sum, n) => sum + n, 0);
  const perCall = (pick: (phase: PhaseResult) => number) =>
    phases.reduce((sum, phase, i) => sum + pick(phase) * (calls[i] as number), 0) / total;
  const concat = <K extends keyof PhaseResult>(key: K) =>
    phases.flatMap((phase) => phase[key] as unknown[]) as PhaseResult[K];
  return {
    gatewayMs: concat("gatewayMs"),
    backendMs: concat("backendMs"),
    backendChatMs: concat("backendChatMs"),
    proxyMs: concat("proxyMs"),
    poolMs: concat("poolMs"),
    generationMs: concat("generationMs"),
    poolGenerationMs: concat("poolGenerationMs"),
    callIndex: concat("callIndex"),
    serverSideMs: concat("serverSideMs"),
    outsideMs: concat("outsideMs"),
    gatewayCpuMsPerCall: perCall((phase) => phase.gatewayCpuMsPerCall),
    poolCpuMsPerCall: perCall((phase) => phase.poolCpuMsPerCall),
    sameInBackendArm: phases.reduce((sum, phase) => sum + phase.sameInBackendArm, 0),
    sameInPoolArm: phases.reduce((sum, phase) => sum + phase.sameInPoolArm, 0),
    records: new Map(phases.flatMap((phase) => [...phase.records])),
  };
}
