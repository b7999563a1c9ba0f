import type { Clock } from "@raas/engine";
import { requestFailure, type TGroupResult, type TStep, type TStepTrajectory } from "@raas/shared";
import type { GroupRecord } from "../ports/batch-store.port";
import type { BatchEngine } from "./batch-system.types";

export interface NextGroupsResult {
  step: TStep;
  /** Handed-out groups after `afterSeq`, in delivery order. */
  groups: TGroupResult[];
  /** True when the step is closed and no group after the returned ones will come. */
  done: boolean;
}

/**
 * The trainer's side of a step: long-polls for groups handed out after a sequence number and
 * builds each member's trajectory (flat tokens, loss mask, logprobs) from the job store.
 */
export class GroupDelivery {
  readonly #waiters = new Map<string, Set<() => void>>();

  constructor(
    private readonly deps: {
      engine: BatchEngine;
      clock: Clock;
      loadStep: (stepId: string) => Promise<TStep | null>;
      loadGroups: (stepId: string) => Promise<GroupRecord[]>;
    },
  ) {}

  /** Wakes the long-polls of a step (something changed). */
  notify(stepId: string): void {
    const waiters = this.#waiters.get(stepId);
    if (!waiters) return;
    this.#waiters.delete(stepId);
    for (const wake of waiters) wake();
  }

  close(): void {
    for (const stepId of [...this.#waiters.keys()]) this.notify(stepId);
  }

  async next(
    stepId: string,
    options: { afterSeq: number; limit: number; timeoutMs: number; signal?: AbortSignal },
  ): Promise<NextGroupsResult> {
    const deadline = this.deps.clock.now() + options.timeoutMs;
    for (;;) {
      const woken = this.#waitFor(stepId);
      const step = await this.deps.loadStep(stepId);
      if (!step) throw requestFailure("NOT_FOUND", `no step with id "${stepId}"`, { details: { stepId } });
      const closed = step.status !== "running";
      if (
        step.deliveredSeq > options.afterSeq ||
        closed ||
        options.signal?.aborted ||
        this.deps.clock.now() >= deadline
      ) {
        woken.cancel();
        const groups = (await this.deps.loadGroups(stepId))
          .filter((g) => g.seq !== null && g.seq > options.afterSeq)
          .sort((a, b) => (a.seq as number) - (b.seq as number))
          .slice(0, options.limit);
        const results = await Promise.all(groups.map((g) => this.#result(g)));
        const lastSeq = results.at(-1)?.seq ?? options.afterSeq;
        return { step, groups: results, done: closed && lastSeq >= step.deliveredSeq };
      }
      await woken.until(deadline - this.deps.clock.now(), options.signal);
    }
  }

  #waitFor(stepId: string) {
    let wake: () => void = () => {};
    const woken = new Promise<void>((resolve) => {
      wake = resolve;
    });
    const set = this.#waiters.get(stepId) ?? new Set();
    set.add(wake);
    this.#waiters.set(stepId, set);
    const cancel = () => {
      set.delete(wake);
      if (set.size === 0 && this.#waiters.get(stepId) === set) this.#waiters.delete(stepId);
    };
    return {
      cancel,
      until: async (delayMs: number, signal?: AbortSignal) => {
        const stopTimer = this.deps.clock.setTimer(wake, Math.max(0, delayMs));
        const onAbort = () => wake();
        signal?.addEventListener("abort", onAbort, { once: true });
        await woken;
        stopTimer();
        signal?.removeEventListener("abort", onAbort);
        cancel();
      },
    };
  }

  async #result(group: GroupRecord): Promise<TGroupResult> {
    const trajectories = await Promise.all(
      group.members.map(
        async (member): Promise<TStepTrajectory> => ({
          ...(await this.deps.engine.exportTrajectory(member.jobId)),
          slot: member.slot,
          dispatchVersion: member.dispatchVersion,
          carriedFromStepId: member.carriedFromStepId,
        }),
      ),
    );
    return {
      seq: group.seq as number,
      groupId: group.id,
      stepId: group.stepId,
      runId: group.runId,
      taskId: group.taskId,
      decision: group.decision,
      rewards: group.members.map((m) => m.reward),
      trajectories,
    };
  }
}
