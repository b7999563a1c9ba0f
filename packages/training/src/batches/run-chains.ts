/**
 * Serialises work per run: each piece starts once the run's previous one settled (whether it
 * succeeded or not), so a run's record and its steps' states have one writer at a time.
 */
export class RunChains {
  readonly #chains = new Map<string, Promise<unknown>>();

  run<T>(runId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#chains.get(runId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    this.#chains.set(runId, settled);
    void settled.then(() => {
      if (this.#chains.get(runId) === settled) this.#chains.delete(runId);
    });
    return next;
  }

  /** Settles once every piece queued so far has. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#chains.values()]);
  }
}
