import type {
  HostSandboxClosure,
  SandboxEventFilter,
  SandboxEventRecord,
  SandboxEventStore,
  SandboxRecord,
  SandboxSummary,
  SandboxSummaryFilter,
} from "../ports/sandbox-event-store.port";
import {
  foldSandboxEvents,
  hostClosureEvents,
  isOpenSandbox,
  summarizeSandboxes,
} from "./sandbox-record-fold";

/** Default and largest number of events `listEvents` returns. */
const DEFAULT_SANDBOX_EVENT_LIMIT = 100;

/** Whether an event passes a filter (shared by the in-memory store and tests). */
function matchesSandboxEvent(event: SandboxEventRecord, filter: SandboxEventFilter): boolean {
  return (
    (filter.jobId === undefined || event.jobId === filter.jobId) &&
    (filter.sandboxId === undefined || event.sandboxId === filter.sandboxId) &&
    (filter.hostId === undefined || event.hostId === filter.hostId) &&
    (filter.type === undefined || event.type === filter.type) &&
    (filter.sinceMs === undefined || event.atMs >= filter.sinceMs)
  );
}

/**
 * A `SandboxEventStore` in process memory: for tests and `RAAS_STORE=memory`. Nothing survives a
 * restart; records are copied in and out.
 */
export class MemorySandboxEventStore implements SandboxEventStore {
  readonly #events: SandboxEventRecord[] = [];
  readonly #sandboxes = new Map<string, SandboxRecord>();

  async appendEvents(events: readonly SandboxEventRecord[]): Promise<void> {
    for (const event of events) this.#events.push(structuredClone(event));
    for (const [id, row] of foldSandboxEvents(this.#sandboxes, events)) this.#sandboxes.set(id, row);
  }

  async listEvents(filter: SandboxEventFilter = {}): Promise<SandboxEventRecord[]> {
    const limit = filter.limit ?? DEFAULT_SANDBOX_EVENT_LIMIT;
    const matching: SandboxEventRecord[] = [];
    for (let i = this.#events.length - 1; i >= 0 && matching.length < limit; i -= 1) {
      const event = this.#events[i]!;
      if (matchesSandboxEvent(event, filter)) matching.push(structuredClone(event));
    }
    return matching;
  }

  async getSandbox(id: string): Promise<SandboxRecord | null> {
    const row = this.#sandboxes.get(id);
    return row ? { ...row } : null;
  }

  async summarize(filter: SandboxSummaryFilter = {}): Promise<SandboxSummary> {
    const rows = [...this.#sandboxes.values()].filter(
      (row) =>
        (filter.hostId === undefined || row.hostId === filter.hostId) &&
        (filter.sinceMs === undefined || row.createdAtMs >= filter.sinceMs),
    );
    const ids = new Set(rows.map((row) => row.id));
    const limitKinds = this.#events
      .filter((event) => event.type === "limit_hit" && ids.has(event.sandboxId))
      .map((event) => (typeof event.detail?.limit === "string" ? event.detail.limit : "unknown"));
    return summarizeSandboxes(rows, limitKinds);
  }

  async listOpenHostIds(): Promise<string[]> {
    const hosts = new Set<string>();
    for (const row of this.#sandboxes.values()) {
      if (row.hostId !== null && isOpenSandbox(row)) hosts.add(row.hostId);
    }
    return [...hosts];
  }

  async closeHostSandboxes(hostId: string, closure: HostSandboxClosure): Promise<string[]> {
    const events = hostClosureEvents([...this.#sandboxes.values()], hostId, closure);
    await this.appendEvents(events);
    return events.map((event) => event.sandboxId);
  }
}
