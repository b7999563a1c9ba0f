// Ours with a weight sync in the middle of the first step: PolicyControl pauses the inference pool
// (`abort-and-continue`: running generations hand over their tokens), holds for the "sync", then
// resumes with version + 1. Measured: generated tokens lost to the sync and how long generation
// takes after the resume to get back to the in-flight level it had before the pause.
import { type PolicySink, sleep } from "@raas/engine";
import {
  type BackendGeneration,
  HttpInferenceBackend,
  type InferenceBackend,
  RoutedInferencePool,
  type RoutedInferencePoolOptions,
} from "@raas/inference";
import { MemoryBatchStore, PolicyControl } from "@raas/training";
import type { DapoRig } from "./dapo-rig";
import type {
  DapoPlan,
  StepTiming,
  StrategyResult,
  StrategyRunner,
  WeightSyncFigures,
} from "./dapo-strategy.types";
import type { DapoTask } from "./dapo-workload";
import { OursRunner } from "./ours-strategy";

export function weightSyncSupport(): { isSupported: true } | { isSupported: false; reason: string } {
  const pool = RoutedInferencePool.prototype as Partial<PolicySink>;
  if (typeof pool.applyPolicy !== "function")
    return {
      isSupported: false,
      reason: "RoutedInferencePool.applyPolicy (weight-sync pause/resume) is not in this build",
    };
  return { isSupported: true };
}

/** Counts what the backends hand over and what the handler gets back (install before the rig starts). */
export class WeightSyncProbe {
  /** Tokens of every backend response, interrupted ones included. */
  receivedTokens = 0;
  /** Tokens of responses an `abort-and-continue` pause interrupted. */
  interruptedTokens = 0;
  interruptedRequests = 0;
  /** Backend requests running now. */
  inFlight = 0;
  readonly poolOptions: Partial<RoutedInferencePoolOptions> = {
    createBackend: (registration, client) =>
      this.#wrap(
        new HttpInferenceBackend({
          id: registration.id,
          kind: registration.kind,
          baseUrl: registration.baseUrl,
          model: registration.modelName,
          client,
          stream: true,
        }),
      ),
  };

  #wrap(backend: InferenceBackend): InferenceBackend {
    const probe = this;
    return {
      id: backend.id,
      kind: backend.kind,
      baseUrl: backend.baseUrl,
      get canInterrupt() {
        return backend.canInterrupt;
      },
      checkHealth: (timeoutMs) => backend.checkHealth(timeoutMs),
      readReportedCounters: (timeoutMs) => backend.readReportedCounters(timeoutMs),
      async generate(request): Promise<BackendGeneration> {
        probe.inFlight += 1;
        try {
          const generation = await backend.generate(request);
          probe.receivedTokens += generation.responseIds.length;
          if (generation.isInterrupted) {
            probe.interruptedTokens += generation.responseIds.length;
            probe.interruptedRequests += 1;
          }
          return generation;
        } finally {
          probe.inFlight -= 1;
        }
      },
    };
  }
}

async function until(predicate: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!(await predicate())) {
    if (performance.now() > deadline) return false;
    await sleep(5);
  }
  return true;
}

/**
 * Ours with a sync once half of the first step's groups are out. The first step has closed
 * nothing yet, so until the pause no token can have been lost to a cancel: tokens the simulator
 * streamed minus tokens the backends handed over, read while nothing runs, is exactly what the
 * interrupts lost in transit; interrupted tokens not found in stored turns were lost after.
 */
export class WeightSyncRunner implements StrategyRunner {
  readonly name = "ours + weight sync";
  readonly #ours: OursRunner;
  readonly #policy: PolicyControl;
  readonly #samples: { atMs: number; running: number }[] = [];
  #sampler: ReturnType<typeof setInterval> | null = null;
  #sync: Promise<SyncFigures> | null = null;

  constructor(
    private readonly rig: DapoRig,
    plan: DapoPlan,
    tasks: readonly DapoTask[],
    private readonly probe: WeightSyncProbe,
    private readonly holdMs = 2_000,
  ) {
    this.#policy = new PolicyControl({ store: new MemoryBatchStore(), sinks: [rig.pool] });
    this.#ours = new OursRunner(this.name, rig, plan, tasks, {
      weightVersion: () => this.#policy.weightVersion,
      onDelivered: (stepIndex, delivered) => {
        if (stepIndex === 0 && delivered >= Math.ceil(plan.groupsPerStep / 2) && this.#sync === null)
          this.#sync = this.#weightSync();
      },
    });
  }

  async step(index: number): Promise<void> {
    if (this.#sampler === null) {
      await this.#policy.start();
      await this.#policy.setWeightVersion(0);
      // Backend requests in flight, sampled: what "generation capacity in use" means here.
      this.#sampler = setInterval(
        () => this.#samples.push({ atMs: performance.now(), running: this.probe.inFlight }),
        10,
      );
    }
    await this.#ours.step(index);
  }

  async finish(timing: StepTiming): Promise<StrategyResult> {
    try {
      const figures = this.#sync === null ? null : await this.#sync;
      const result = await this.#ours.finish(timing);
      if (figures) {
        let keptTokens = 0;
        let turnsAfterResume = 0;
        for (const jobId of this.#ours.endedJobIds()) {
          for (const turn of (await this.rig.engine.getTrajectory(jobId)).turns) {
            if (turn.weightVersion === "1") turnsAfterResume += 1;
            const spans = turn.weightVersionSpans ?? [];
            // Every span but the last was sampled before an interrupt and kept.
            for (const span of spans.slice(0, -1)) keptTokens += span.end - span.start;
          }
        }
        const lostAfter = Math.max(0, this.probe.interruptedTokens - keptTokens);
        result.weightSync = {
          ...figures,
          tokensDiscarded: figures.lostInTransit + lostAfter,
          keptTokens,
          turnsAfterResume,
        };
      }
      return result;
    } finally {
      if (this.#sampler) clearInterval(this.#sampler);
    }
  }

  async #weightSync(): Promise<SyncFigures> {
    const { rig, probe, holdMs } = this;
    const samples = this.#samples;
    const pausedAt = performance.now();
    const recent = samples.filter((s) => s.atMs >= pausedAt - 1_000).map((s) => s.running);
    const inFlightBeforePause = recent.length > 0 ? recent.reduce((a, b) => a + b, 0) / recent.length : 0;
    await this.#policy.pause({ mode: "abort-and-continue" });
    const isQuiet = await until(
      async () => probe.inFlight === 0 && (await rig.simulator.snapshot()).running === 0,
      holdMs,
    );
    const lostInTransit = isQuiet
      ? (await rig.simulator.snapshot()).generationTokens - probe.receivedTokens
      : Number.NaN;
    await sleep(Math.max(0, holdMs - (performance.now() - pausedAt)));
    const resumedAt = performance.now();
    await this.#policy.resume({ weightVersion: 1 });
    const level = Math.max(1, Math.floor(inFlightBeforePause));
    const isBack = () => samples.some((s) => s.atMs > resumedAt && s.running >= level);
    await until(isBack, 30_000);
    const back = samples.find((s) => s.atMs > resumedAt && s.running >= level);
    return {
      lostInTransit,
      interruptedRequests: probe.interruptedRequests,
      interruptedTokens: probe.interruptedTokens,
      holdMs: Math.round(resumedAt - pausedAt),
      idleBeyondSyncMs: back ? Math.round(back.atMs - resumedAt) : null,
      inFlightBeforePause: Math.round(inFlightBeforePause * 10) / 10,
    };
  }
}

type SyncFigures = Omit<WeightSyncFigures, "tokensDiscarded" | "keptTokens" | "turnsAfterResume">;
