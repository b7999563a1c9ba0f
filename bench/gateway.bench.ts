// `npm run bench -- gateway [--sessions 64] [--calls 6] [--decode-ms-per-token 10] [--clients process|inline] [--repeat 1] [--warm-up 2] [--tool-output-lines 0] [--store memory|pglite|postgres] [--trained]`:
// the inference gateway's overhead per call over a direct backend call, and the time to build a
// trajectory's traces. The server (no agent handlers) runs in this process; the harnesses in a
// process of their own (`bench/gateway/harness-client.ts`, as harnesses run in sandboxes;
// `--clients inline` puts them here); the simulator (the labelled test double) in another, as a
// real backend would.
//
// Overhead per call (`overheadP50Ms`) = the harness's wall time of the gateway call (HTTP to the
// server, Qwen3 template + tokenizer, routed pool → backend, tool-call parsing, recording, the JSON
// answer) minus the harness's wall time of the same generation asked of the backend directly
// (vLLM's `/v1/completions` with the recorded prompt ids and the same sampling) — what a harness
// pays for going through RaaS. Both arms at the same concurrency (`--sessions` conversations of
// `--calls` sequential calls each, all at once), paired per call (job, seq). A stricter figure,
// `overheadVsPoolP50Ms`, compares with the same generation asked of the routed pool inside the
// server's process (no HTTP from the harness at all). `overheadVsBackendChatP50Ms` compares with
// what a harness calls without RaaS: the same conversations sent to the backend's OpenAI chat
// endpoint (the backend renders, tokenizes and parses; the simulator with the same template,
// tokenizer and parser code as the gateway). For scale, `passThroughProxyOverheadP50Ms`
// is what a proxy that only forwards (no gateway work) adds to the direct call on this machine.
// Each session's first call (a new connection from a new harness process, all 64 at once) is also
// reported apart from its later ones (`overheadFirstCallsP50Ms`, `overheadLaterCallsP50Ms`; the
// harness's wall time of first calls through the gateway, the proxy and straight to the backend:
// `firstCallP50Ms`, `passThroughProxyFirstCallP50Ms`, `directFirstCallP50Ms`); `overheadP95Ms` and
// `passThroughProxyOverheadP95Ms` are over every call, first calls included (a sixth of them at
// `--calls 6`, so the p95 is a first call's), and the target compares the two of the same run; and
// the p50 per range of call index (`overheadP50ByCallIndexMs`): the sessions start in one burst and
// stay bunched for their next calls, so longer sessions (`--calls 24`) show the steadier state.
// Each phase starts with `--warm-up` unmeasured rounds of conversations (of other tasks) on jobs of their
// own. `--repeat N` runs the paced phase N times on fresh jobs and pools the calls (the headline is then
// the pooled p50; each repeat's p50 and their median are reported too): one run's p50 moves by
// about ±1 ms on this shared 2-core machine. Tool results are a two-file listing; `--tool-output-lines N`
// makes each an N-line test log, new text on every call (about 20 tokens a line), as a SWE harness's
// are: the gateway then tokenizes that much new text per call. The server records every call
// (stored just behind its answer on pglite and postgres; every read of the job waits for it);
// `--store` says where: `memory` (the default), `pglite` (`npm start`'s embedded store) or
// `postgres` (distributed mode, the target's; `RAAS_BENCH_DATABASE_URL`, a schema of its own
// dropped after). Each job's RUN attempt begins before its harness's first call, as a deployment's
// sandbox bridge does (`startAttempt`). The sessions' policy has no trainer, so no weight sync can
// interrupt a call and the gateway reads each backend answer as one JSON body; `--trained` sets
// the policy's weight version first, as a trainer does, and every backend call is then a token
// stream (a wake-up and a parse per token; what `abort-and-continue` needs).
// `recordBytesPerCall` is a measured call's record as handed to the store (4 bytes per id and
// logprob, the JSON's length); `storedBytesPerCall` (postgres) what a call's row takes in the table
// over every call of the run (warm-ups included), after PostgreSQL's compression.
//
// Two phases: `paced`, where the simulator decodes at `--decode-ms-per-token` (generation takes
// time, as on a GPU, so 64 sessions do not all sit in the gateway at once) — the headline; and
// `saturated`, a zero-time simulator, where every session always waits on the server's CPU, so the
// per-call difference is ~sessions × the gateway's CPU per call (a throughput figure on a shared
// 2-core machine, reported as `saturatedOverheadP50Ms`).
import { parseArgs } from "node:util";
import { createRaasLogger } from "@raas/compose";
import { buildGatewayTraces } from "@raas/engine";
import { startServer } from "@raas/server";
import type { TGatewayCallRecord } from "@raas/shared";
import type { Bench, BenchRow } from "./bench.types";
import { prepareBenchStore, readBenchStoreKind } from "./gateway/bench-store";
import { mergePhases, type PhaseResult, runPhase } from "./gateway/phase";
import { startSimulatorProcess } from "./gateway/processes";
import { mean, median, percentile } from "./stats";
import { targetOf } from "./targets/bench-targets";
import { isTargetMet, meetsTarget } from "./targets/target-verdict";

const OVERHEAD_P50_TARGET = targetOf("gateway", "overheadP50Ms");
/** Over every call, sessions' first calls included: no worse than a bare forwarder's in the same run. */
const OVERHEAD_P95_TARGET = targetOf("gateway", "overheadP95Ms");

const row = (name: string, values: readonly number[], extra: Record<string, number> = {}): BenchRow => ({
  name,
  n: values.length,
  p50Ms: median(values),
  p95Ms: percentile(values, 95),
  p99Ms: percentile(values, 99),
  meanMs: mean(values),
  ...extra,
});

/** A call record's size as the gateway hands it over: 4 bytes per id and logprob, JSON's length. */
const recordBytes = (call: TGatewayCallRecord) =>
  4 * (call.promptIds.length + call.responseIds.length + call.logprobs.length) +
  JSON.stringify([call.messages, call.tools, call.answer]).length;

const minus = (a: readonly number[], b: readonly number[]) => a.map((value, i) => value - (b[i] as number));
const fixed = (value: number) => Number(value.toFixed(3));
/** The values of sessions' first calls (all 64 connect and arrive at once) or of their later ones. */
const firstCalls = (phase: PhaseResult, values: readonly number[]) =>
  values.filter((_, i) => phase.callIndex[i] === 0);
const laterCalls = (phase: PhaseResult, values: readonly number[]) =>
  values.filter((_, i) => phase.callIndex[i] !== 0);
/** Sessions' calls by their index in the session, in ranges that double: 0, 1, 2, 3–5, 6–11, … */
const CALL_INDEX_RANGES = [
  [0, 0],
  [1, 1],
  [2, 2],
  [3, 5],
  [6, 11],
  [12, 23],
  [24, 47],
  [48, Number.POSITIVE_INFINITY],
] as const;
/** The p50 of `values` per range of call index (`"0: 27.5, 1: 3.1, …"`), ranges with calls only. */
function p50ByCallIndex(phase: PhaseResult, values: readonly number[]): string {
  return CALL_INDEX_RANGES.flatMap(([low, high]) => {
    const inRange = values.filter(
      (_, i) => (phase.callIndex[i] as number) >= low && (phase.callIndex[i] as number) <= high,
    );
    if (inRange.length === 0) return [];
    const label = low === high ? `${low}` : high === Number.POSITIVE_INFINITY ? `${low}+` : `${low}-${high}`;
    return [`${label}: ${median(inRange).toFixed(2)}`];
  }).join(", ");
}

function phaseRows(label: string, phase: PhaseResult): BenchRow[] {
  return [
    row(`${label}: gateway call (HTTP, harness wall)`, phase.gatewayMs),
    row(`${label}: direct backend call (HTTP, harness wall)`, phase.backendMs),
    row(`${label}: direct backend chat call (HTTP, harness wall)`, phase.backendChatMs),
    row(`${label}: direct pool call (in the server)`, phase.poolMs),
    row(`${label}: overhead over the direct backend call`, minus(phase.gatewayMs, phase.backendMs)),
    row(
      `${label}: the same, sessions' later calls`,
      laterCalls(phase, minus(phase.gatewayMs, phase.backendMs)),
    ),
    row(
      `${label}: the same, sessions' first calls`,
      firstCalls(phase, minus(phase.gatewayMs, phase.backendMs)),
    ),
    row(`${label}: overhead over the backend's chat call`, minus(phase.gatewayMs, phase.backendChatMs)),
    row(`${label}: overhead over the direct pool call`, minus(phase.gatewayMs, phase.poolMs)),
    row(`${label}: pass-through proxy's overhead (the floor)`, minus(phase.proxyMs, phase.backendMs)),
    row(
      `${label}: the same, sessions' first calls`,
      firstCalls(phase, minus(phase.proxyMs, phase.backendMs)),
    ),
    row(`${label}: pool generation in the gateway call`, phase.generationMs),
    row(`${label}: pool generation in the direct pool call`, phase.poolGenerationMs),
    row(`${label}: gateway's own time in the server`, phase.serverSideMs),
    row(`${label}: the same, sessions' first calls`, firstCalls(phase, phase.serverSideMs)),
    row(`${label}: HTTP and waiting outside the gateway`, phase.outsideMs),
    row(`${label}: the same, sessions' first calls`, firstCalls(phase, phase.outsideMs)),
    row(`${label}: gateway call, sessions' first calls (harness wall)`, firstCalls(phase, phase.gatewayMs)),
    row(`${label}: proxied call, sessions' first calls (harness wall)`, firstCalls(phase, phase.proxyMs)),
    row(
      `${label}: direct backend call, sessions' first calls (harness wall)`,
      firstCalls(phase, phase.backendMs),
    ),
  ];
}

/** Sets the default policy's weight version over the control plane, as a trainer does. */
async function setPolicyWeightVersion(
  server: { url: string; auth: { adminToken?: string } },
  weightVersion: number,
): Promise<void> {
  const response = await fetch(`${server.url}/api/v1/policy/weight-version`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${server.auth.adminToken}` },
    body: JSON.stringify({ weightVersion }),
  });
  if (!response.ok)
    throw new Error(`setting the policy's weight version: ${response.status} ${await response.text()}`);
}

const bench: Bench = {
  name: "gateway",
  description: "gateway overhead per call over a direct backend call, and trace building per trajectory",
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        sessions: { type: "string", default: "64" },
        calls: { type: "string", default: "6" },
        "decode-ms-per-token": { type: "string", default: "10" },
        clients: { type: "string", default: "process" },
        repeat: { type: "string", default: "1" },
        "warm-up": { type: "string", default: "2" },
        "tool-output-lines": { type: "string", default: "0" },
        store: { type: "string", default: "memory" },
        trained: { type: "boolean", default: false },
      },
    });
    const repeats = Math.max(1, Number(values.repeat));
    const warmUpRounds = Math.max(0, Number(values["warm-up"]));
    const toolOutputLines = Math.max(0, Number(values["tool-output-lines"]));
    const storeKind = readBenchStoreKind(values.store);
    const sessions = Number(values.sessions);
    const callsPerSession = Number(values.calls);
    const decodeMsPerToken = Number(values["decode-ms-per-token"]);
    const clients = values.clients === "inline" ? "inline" : "process";
    const paced = await startSimulatorProcess(sessions * 4, decodeMsPerToken);
    const zero = await startSimulatorProcess(sessions * 4, 0);
    const store = await prepareBenchStore(storeKind);
    const server = await startServer({
      port: 0,
      agentHandlers: false,
      store: store.config,
      logger: createRaasLogger("warn"),
    });
    try {
      if (values.trained) await setPolicyWeightVersion(server, 1);
      const options = { sessions, callsPerSession, clients, warmUpRounds, toolOutputLines } as const;
      // Repeats of the headline phase (each on fresh jobs), pooled: run-to-run spread on a shared
      // 2-core machine is about ±1 ms, so one figure alone says little about a small change.
      const pacedRuns: PhaseResult[] = [];
      for (let i = 0; i < repeats; i += 1) {
        pacedRuns.push(
          await runPhase(server, paced.url, {
            ...options,
            backendId: `sim-paced-${i}`,
            firstSessionIndex: (i + 1) * 10 * sessions,
          }),
        );
      }
      const pacedPhase = mergePhases(pacedRuns);
      const p50PerRepeat = pacedRuns.map((run) => median(minus(run.gatewayMs, run.backendMs)));
      const saturated = await runPhase(server, zero.url, {
        ...options,
        backendId: "sim-zero",
        firstSessionIndex: (repeats + 1) * 10 * sessions,
      });

      const traceMs: number[] = [];
      let certified = 0;
      for (const calls of pacedPhase.records.values()) {
        const startedAt = performance.now();
        const traces = buildGatewayTraces(calls);
        traceMs.push(performance.now() - startedAt);
        if (traces.certificate.isCertified) certified += 1;
      }
      const overheadMs = minus(pacedPhase.gatewayMs, pacedPhase.backendMs);
      const overheadP50 = median(overheadMs);
      const overheadP95 = percentile(overheadMs, 95);
      const proxyOverheadP95 = percentile(minus(pacedPhase.proxyMs, pacedPhase.backendMs), 95);
      const stored = await store.measureCalls();
      const recorded = [...pacedPhase.records.values()].flat();
      const calls = pacedPhase.gatewayMs.length + saturated.gatewayMs.length;
      return {
        bench: "gateway",
        description: bench.description,
        rows: [
          ...phaseRows("paced", pacedPhase),
          ...phaseRows("saturated", saturated),
          row("trace building per trajectory", traceMs, { callsPerTrajectory: callsPerSession }),
        ],
        summary: {
          overheadP50Ms: fixed(overheadP50),
          overheadP95Ms: fixed(overheadP95),
          overheadMeanMs: fixed(mean(overheadMs)),
          ...(repeats > 1 && {
            overheadP50PerRepeatMs: p50PerRepeat.map((value) => value.toFixed(2)).join(", "),
            overheadP50MedianOfRepeatsMs: fixed(median(p50PerRepeat)),
          }),
          overheadVsPoolP50Ms: fixed(median(minus(pacedPhase.gatewayMs, pacedPhase.poolMs))),
          overheadVsBackendChatP50Ms: fixed(median(minus(pacedPhase.gatewayMs, pacedPhase.backendChatMs))),
          overheadVsBackendChatMeanMs: fixed(mean(minus(pacedPhase.gatewayMs, pacedPhase.backendChatMs))),
          overheadLaterCallsP50Ms: fixed(median(laterCalls(pacedPhase, overheadMs))),
          overheadFirstCallsP50Ms: fixed(median(firstCalls(pacedPhase, overheadMs))),
          overheadP50ByCallIndexMs: p50ByCallIndex(pacedPhase, overheadMs),
          serverSideOverheadP50Ms: fixed(median(pacedPhase.serverSideMs)),
          passThroughProxyOverheadP50Ms: fixed(median(minus(pacedPhase.proxyMs, pacedPhase.backendMs))),
          passThroughProxyOverheadMeanMs: fixed(mean(minus(pacedPhase.proxyMs, pacedPhase.backendMs))),
          passThroughProxyFirstCallsP50Ms: fixed(
            median(firstCalls(pacedPhase, minus(pacedPhase.proxyMs, pacedPhase.backendMs))),
          ),
          passThroughProxyOverheadP95Ms: fixed(proxyOverheadP95),
          firstCallP50Ms: fixed(median(firstCalls(pacedPhase, pacedPhase.gatewayMs))),
          passThroughProxyFirstCallP50Ms: fixed(median(firstCalls(pacedPhase, pacedPhase.proxyMs))),
          directFirstCallP50Ms: fixed(median(firstCalls(pacedPhase, pacedPhase.backendMs))),
          saturatedOverheadP50Ms: fixed(median(minus(saturated.gatewayMs, saturated.backendMs))),
          saturatedOverheadVsPoolP50Ms: fixed(median(minus(saturated.gatewayMs, saturated.poolMs))),
          pacedServerCpuMsPerCall: `gateway ${pacedPhase.gatewayCpuMsPerCall.toFixed(3)}, direct pool ${pacedPhase.poolCpuMsPerCall.toFixed(3)}`,
          saturatedServerCpuMsPerCall: `gateway ${saturated.gatewayCpuMsPerCall.toFixed(3)}, direct pool ${saturated.poolCpuMsPerCall.toFixed(3)}`,
          sameGenerationsInAllArms: `backend ${pacedPhase.sameInBackendArm + saturated.sameInBackendArm}/${calls}, pool ${pacedPhase.sameInPoolArm + saturated.sameInPoolArm}/${calls}`,
          targetOverheadP50Ms: OVERHEAD_P50_TARGET.value as number,
          meetsTarget: meetsTarget(OVERHEAD_P50_TARGET, overheadP50),
          meetsP95Target: isTargetMet(OVERHEAD_P95_TARGET, overheadP95, proxyOverheadP95),
          traceBuildP50Ms: fixed(median(traceMs)),
          recordBytesPerCall: Math.round(mean(recorded.map(recordBytes))),
          ...(stored && { storedBytesPerCall: Math.round(stored.bytes / Math.max(1, stored.calls)) }),
          certifiedTrajectories: `${certified}/${pacedPhase.records.size}`,
        },
        config: {
          sessions,
          callsPerSession,
          pacedDecodeMsPerToken: decodeMsPerToken,
          clients,
          repeats,
          warmUpRounds,
          toolOutputLines,
          store: storeKind,
          isTrainedPolicy: values.trained === true,
          saturatedDecodeMsPerToken: 0,
        },
      };
    } finally {
      await server.close({ graceMs: 0 });
      await store.dispose();
      paced.child.kill("SIGTERM");
      zero.child.kill("SIGTERM");
    }
  },
};

export default bench;
