import {
  type GatewayCallStore,
  HandlerRegistry,
  MemoryJobQueue,
  MemoryJobStore,
  RolloutEngine,
  sleep,
  type TaskHandler,
} from "@raas/engine";
import { ManualClock } from "@raas/engine/testing";
import { callerConfigFailure, policyFailure, stageFailure } from "@raas/shared";
import { afterEach } from "vitest";
import { z } from "zod";
import { BatchSystem } from "../src/batches/batch-system";
import type { TaskCatalog } from "../src/batches/batch-system.types";
import { gatewayTraceCertifier } from "../src/batches/trace-certification";
import { MemoryBatchStore } from "../src/memory/memory-batch-store";
import type { BatchStore } from "../src/ports/batch-store.port";
import type { CurriculumStore } from "../src/ports/curriculum-store.port";

/** Payload of the scripted group handler: each slot's reward, and which attempts fail as infrastructure. */
const ZGroupTaskPayload = z
  .object({
    rewards: z.array(z.number()).describe("Reward by slot."),
    tokens: z.number().int().default(5).describe("Sampled tokens recorded per job."),
    infraFailures: z
      .array(z.number().int())
      .default([])
      .describe("By slot: attempts that fail as `sandbox`."),
    misconfiguredSlots: z
      .array(z.number().int())
      .default([])
      .describe(
        "Slots whose INIT fails on every attempt as a job whose own configuration cannot work (`callerConfigFailure`: an environment's MCP server that cannot start).",
      ),
    agentFailSlots: z
      .array(z.number().int())
      .default([])
      .describe("Slots whose jobs fail as `agent` (trainable)."),
    tamperedSlots: z
      .array(z.number().int())
      .default([])
      .describe("Slots whose EVAL voids the grade as a grader whose canaries lied does (`tampered`)."),
    verifierCrashSlots: z
      .array(z.number().int())
      .default([])
      .describe(
        "Slots whose EVAL reports a verifier crash counted as a wrong answer (reward 0, `result.verifier.crashed`).",
      ),
    verifierFailures: z
      .array(z.number().int())
      .default([])
      .describe(
        "By slot: attempts whose verifier crashes as infrastructure (`eval`, `result.verifier.crashed`).",
      ),
    rewriteHistorySlots: z
      .array(z.number().int())
      .default([])
      .describe(
        "Slots whose two gateway calls (recorded when the harness has a call store) rewrite the first prompt's second token in the second call.",
      ),
  })
  .strict();
type TGroupTaskPayload = z.infer<typeof ZGroupTaskPayload>;

/** A gate a test opens to let a member's RUN finish (`taskId:slot`). */
class Gates {
  readonly #held = new Map<string, { open: () => void; opened: Promise<void> }>();

  hold(...keys: string[]): void {
    for (const key of keys) {
      let open = () => {};
      const opened = new Promise<void>((resolve) => {
        open = resolve;
      });
      this.#held.set(key, { open, opened });
    }
  }

  open(...keys: string[]): void {
    for (const key of keys) {
      this.#held.get(key)?.open();
      this.#held.delete(key);
    }
  }

  async pass(key: string, signal: AbortSignal): Promise<void> {
    const gate = this.#held.get(key);
    if (!gate) return;
    await Promise.race([
      gate.opened,
      new Promise<never>((_, reject) => {
        if (signal.aborted) reject(signal.reason);
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      }),
    ]);
  }
}

function slotOf(metadata: Record<string, unknown> | null): number {
  return typeof metadata?.slot === "number" ? metadata.slot : 0;
}

function attemptOf(jobKey: string | null): number {
  return Number(jobKey?.split(":").at(-1) ?? 0);
}

/** A handler whose outcome per group slot is scripted by the payload; RUN waits at the test's gates. */
function createGroupTaskHandler(
  gates: Gates,
  clock: ManualClock,
  gatewayCalls?: GatewayCallStore,
): TaskHandler<TGroupTaskPayload, null, null> {
  return {
    kind: "grouptask",
    failureReward: -1,
    payloadSchema: ZGroupTaskPayload,
    async init(ctx) {
      const slot = slotOf(ctx.job.metadata);
      if (ctx.payload.misconfiguredSlots.includes(slot))
        throw callerConfigFailure(`MCP server "db" of slot ${slot} exited before its handshake`);
      return null;
    },
    async run(ctx) {
      const slot = slotOf(ctx.job.metadata);
      const taskId = String(ctx.job.metadata?.taskId);
      await gates.pass(`${taskId}:${slot}`, ctx.signal);
      await sleep(1, ctx.signal, clock);
      ctx.record.turn({
        index: 0,
        promptIds: [1, 2, 3],
        responseIds: Array.from({ length: ctx.payload.tokens }, (_, i) => 100 + i),
        logprobs: Array.from({ length: ctx.payload.tokens }, () => -0.5),
        backendId: "test",
        weightVersion: null,
        cachedPromptTokens: null,
        latencyMs: 1,
        finishReason: "stop",
        text: null,
      });
      if (gatewayCalls) {
        const rewrites = ctx.payload.rewriteHistorySlots.includes(slot);
        await recordGatewayCalls(gatewayCalls, ctx.job.id, rewrites);
      }
      if (attemptOf(ctx.job.jobKey) < (ctx.payload.infraFailures[slot] ?? 0))
        throw stageFailure("sandbox", `scripted infrastructure failure of slot ${slot}`);
      if (ctx.payload.agentFailSlots.includes(slot)) throw policyFailure("scripted policy fault");
      return null;
    },
    async eval(ctx) {
      const slot = slotOf(ctx.job.metadata);
      if (ctx.payload.tamperedSlots.includes(slot))
        throw policyFailure(`canary of slot ${slot} lied`, {
          label: "tampered",
          result: { canary: `canary_${slot}`, expected: "failed", reported: "passed" },
        });
      const crashed = { verifier: { crashed: true } };
      if (attemptOf(ctx.job.jobKey) < (ctx.payload.verifierFailures[slot] ?? 0))
        throw stageFailure("eval", `verifier of slot ${slot} crashed`, { result: crashed });
      if (ctx.payload.verifierCrashSlots.includes(slot)) return { reward: 0, result: crashed };
      return { reward: ctx.payload.rewards[slot] ?? 0 };
    },
  };
}

/**
 * Two calls of a harness through the gateway, as the gateway records them: the second continues
 * the first token for token, or (`rewritesHistory`) changed the first prompt's token 1 — a break.
 */
async function recordGatewayCalls(store: GatewayCallStore, jobId: string, rewritesHistory: boolean) {
  const base = {
    jobId,
    finishReason: "stop",
    backendId: "test",
    weightVersion: null,
    latencyMs: 1,
    messages: [],
    tools: [],
    answer: null,
    cachedPromptTokens: null,
    overheadMs: 0,
    createdAtMs: 0,
  };
  await store.append({
    ...base,
    id: `${jobId}-c0`,
    seq: 0,
    parentCallId: null,
    promptIds: [1, 2, 3],
    responseIds: [10, 11],
    logprobs: [-0.5, -0.5],
  });
  await store.append({
    ...base,
    id: `${jobId}-c1`,
    seq: 1,
    parentCallId: `${jobId}-c0`,
    promptIds: [1, rewritesHistory ? 9 : 2, 3, 10, 11, 20],
    responseIds: [12],
    logprobs: [-0.5],
  });
}

export function groupTask(taskId: string, rewards: number[], extra: Partial<TGroupTaskPayload> = {}) {
  return { taskId, kind: "grouptask", payload: { rewards, ...extra } };
}

/**
 * An engine on memory adapters with the scripted group handler, and a batch system over it, all on
 * one manual clock: time moves only in `drive` / `driveUntil`, so what a test sees is the order of
 * events, never how fast they came.
 */
export async function startBatchHarness(
  options: {
    store?: BatchStore;
    weightVersion?: () => number | null;
    catalog?: TaskCatalog;
    curriculum?: CurriculumStore;
    /** Where the scripted handler records gateway calls; the batch system certifies from them. */
    gatewayCalls?: GatewayCallStore;
    /** How often the batch system re-reads running jobs (its safety net for missed job ends). */
    reconcileEveryMs?: number;
  } = {},
) {
  const gates = new Gates();
  const clock = new ManualClock();
  const handlers = new HandlerRegistry().register(createGroupTaskHandler(gates, clock, options.gatewayCalls));
  const jobStore = new MemoryJobStore();
  const queue = new MemoryJobQueue({ clock });
  const engine = new RolloutEngine({
    store: jobStore,
    queue,
    handlers,
    clock,
    pools: { init: { concurrency: 16 }, run: { concurrency: 64 }, eval: { concurrency: 16 } },
  });
  await engine.start();
  const store = options.store ?? new MemoryBatchStore();
  const make = () =>
    new BatchSystem({
      engine,
      store,
      clock,
      reconcileEveryMs: options.reconcileEveryMs ?? 200,
      ...(options.catalog ? { catalog: options.catalog } : {}),
      ...(options.curriculum ? { curriculum: options.curriculum } : {}),
      ...(options.weightVersion ? { weightVersion: options.weightVersion } : {}),
      ...(options.gatewayCalls ? { traceCertifier: gatewayTraceCertifier(options.gatewayCalls) } : {}),
    });
  let batches = make();
  await batches.start();
  /** One millisecond of clock time, with what it started committed before the next. */
  const step = async () => {
    await clock.advance(1);
    await engine.flush();
  };
  return {
    engine,
    store,
    gates,
    clock,
    /**
     * Moves the clock on a millisecond at a time until `done` settles, and returns its value; past
     * `limitMs` of clock time it throws (a deterministic bound: the clock moves only here).
     */
    async drive<T>(done: Promise<T>, limitMs = 60_000): Promise<T> {
      let isSettled = false;
      const watched = done.finally(() => {
        isSettled = true;
      });
      await engine.flush();
      for (let ms = 0; !isSettled; ms++) {
        if (ms >= limitMs) throw new Error(`still waiting after ${limitMs} ms of clock time`);
        await step();
      }
      return watched;
    },
    /**
     * Moves the clock on a millisecond at a time until `holds()` — for a state no event announces
     * (a group's decision, a member's job id): read between clock steps, so the answer depends on
     * the order of events alone. Throws past `limitMs` of clock time.
     */
    async driveUntil(holds: () => Promise<boolean>, limitMs = 60_000): Promise<void> {
      await engine.flush();
      for (let ms = 0; !(await holds()); ms++) {
        if (ms >= limitMs) throw new Error(`condition not met in ${limitMs} ms of clock time`);
        await step();
      }
    },
    get batches() {
      return batches;
    },
    /** Stops the batch system and starts a new one on the same store (a server restart). */
    async restartBatches() {
      await batches.stop();
      batches = make();
      await batches.start();
      return batches;
    },
    async close() {
      await batches.stop();
      let isStopped = false;
      const stopping = engine.stop({ graceMs: 100 }).finally(() => {
        isStopped = true;
      });
      // The stop's grace passes only as the clock moves.
      while (!isStopped) await clock.advance(100);
      await stopping;
      await queue.close();
      await jobStore.close();
    },
  };
}

export type BatchHarness = Awaited<ReturnType<typeof startBatchHarness>>;

/** Starts a harness per test and closes it after the test. */
export function batchHarnessPerTest() {
  let current: BatchHarness | null = null;
  afterEach(async () => {
    await current?.close();
    current = null;
  });
  return async (options?: Parameters<typeof startBatchHarness>[0]): Promise<BatchHarness> => {
    current = await startBatchHarness(options);
    return current;
  };
}

/** Drives the clock until the step stopped running (its long-poll wakes on the close); returns it. */
export async function closedStep(h: BatchHarness, stepId: string) {
  const limitMs = 60_000;
  const { step } = await h.drive(
    h.batches.nextGroups(stepId, { afterSeq: Number.MAX_SAFE_INTEGER, limit: 1, timeoutMs: limitMs }),
    limitMs + 1,
  );
  if (step.status === "running") throw new Error(`step ${stepId} still running after ${limitMs} ms`);
  return h.batches.getStep(stepId);
}
