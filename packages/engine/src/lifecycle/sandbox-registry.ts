import type { Cleanup } from "../ports/task-handler.port";
import { runCleanups, type StageOutputs } from "./live-job";

/** What one process keeps for a job between its stages: the live objects a handoff points at. */
export interface HeldSandbox {
  jobId: string;
  /** INIT's and RUN's outputs (the sandbox object, the agent's result). */
  outputs: StageOutputs;
  /** `deferToJobEnd` cleanups (closing the sandbox). */
  jobCleanups: Cleanup[];
}

/**
 * This process's live stage outputs, keyed by the sandbox id stored in a job's handoff. Only the
 * id travels through the store and queue; a process that is handed a job whose sandbox id it
 * does not hold knows the sandbox is gone (the job restarts from INIT). The registry owns what it
 * holds: letting go of an entry (`close`) closes it, so nothing leaves it still open.
 */
export class SandboxRegistry {
  readonly #held = new Map<string, HeldSandbox>();

  get size(): number {
    return this.#held.size;
  }

  hold(sandboxId: string, held: HeldSandbox): void {
    this.#held.set(sandboxId, held);
  }

  get(sandboxId: string | null | undefined): HeldSandbox | undefined {
    return sandboxId ? this.#held.get(sandboxId) : undefined;
  }

  /** What is held: each sandbox id and its job. */
  entries(): Array<{ sandboxId: string; jobId: string }> {
    return [...this.#held].map(([sandboxId, held]) => ({ sandboxId, jobId: held.jobId }));
  }

  /**
   * Forgets the entry and runs its cleanups (closing the sandbox); returns their errors. A no-op
   * for an id not held. Cleanups shared with the job's live copy run once, whoever runs them first.
   */
  close(sandboxId: string | null | undefined): Promise<unknown[]> {
    const held = this.get(sandboxId);
    if (!held) return Promise.resolve([]);
    this.#held.delete(sandboxId as string);
    return runCleanups(held.jobCleanups);
  }

  /** Removes and returns everything held (at shutdown: the sandboxes are of no use to anyone after). */
  takeAll(): HeldSandbox[] {
    const all = [...this.#held.values()];
    this.#held.clear();
    return all;
  }
}
