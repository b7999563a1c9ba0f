import type { SimulatorFault } from "./simulator-server";

/** The injected fault, if any, counted down per request it applies to. */
export class FaultInjector {
  #fault: (SimulatorFault & { remaining: number }) | null = null;

  set(next: SimulatorFault | null): void {
    this.#fault = next ? { ...next, remaining: next.remaining ?? Number.POSITIVE_INFINITY } : null;
  }

  get isUnhealthy(): boolean {
    return this.#fault?.kind === "unhealthy";
  }

  /** The fault's kind when it is one of `kinds` (one request used up), else null. */
  take(kinds: readonly SimulatorFault["kind"][]): SimulatorFault["kind"] | null {
    const fault = this.#fault;
    if (!fault || !kinds.includes(fault.kind)) return null;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.#fault = null;
    return fault.kind;
  }
}
