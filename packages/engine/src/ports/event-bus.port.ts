/** Channels the engine publishes on; every process of one deployment shares them. */
export const BUS_CHANNELS = {
  /** A cancel request: `{ jobIds: string[], reason: string }`. Whoever runs one of the jobs aborts it. */
  cancel: "raas:cancel",
  /** Job events (status changes) from every process, for the server's live feeds. */
  jobEvents: "raas:job-events",
  /** Worker lifecycle (registered, draining, stopped, lost). */
  workers: "raas:workers",
  /** The policy state (`TPolicyState` JSON) after every change: workers apply it to their inference pools. */
  policy: "raas:policy",
  /** A backend registered, drained, resumed or removed through the API (`{ id }`): workers re-read the stored backends. */
  backends: "raas:backends",
} as const;
export type TBusChannel = (typeof BUS_CHANNELS)[keyof typeof BUS_CHANNELS];

/**
 * Fire-and-forget messages between the processes of one deployment (server and workers):
 * in-process for the embedded default, Redis pub/sub in distributed mode. Messages are strings
 * (JSON); receivers validate them. Delivery is at most once — nothing that must not be lost goes
 * through the bus alone (the store holds state; the bus only makes others notice sooner).
 */
export interface EventBus {
  publish(channel: TBusChannel, message: string): Promise<void>;
  /** Resolves once the subscription is active; the returned function ends it. */
  subscribe(channel: TBusChannel, listener: (message: string) => void): Promise<() => Promise<void>>;
  /**
   * Calls `listener` each time the bus is back after losing its connection (its subscriptions
   * restored): messages published meanwhile are lost, so a receiver re-reads what it needs from
   * the store. Absent on a bus that never loses messages (in-process). Returns an unsubscribe.
   */
  onRestored?(listener: () => void): () => void;
  close(): Promise<void>;
}
