import type { Cleanup } from "../ports/task-handler.port";
import type { StageOutputs } from "./live-job";

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
 * does not hold knows the sandbox is gone (the job restarts from INIT).
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

  release(sandboxId: string | null | undefined): void {
    if (sandboxId) this.#held.delete(sandboxId);
  }

  /** Removes and returns everything held (at shutdown: the sandboxes are of no use to anyone after). */
  takeAll(): HeldSandbox[] {
    const all = [...this.#held.values()];
    this.#held.clear();
    return all;
  }
}
