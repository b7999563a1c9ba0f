import type { EventBus, TBusChannel } from "../ports/event-bus.port";

/** The embedded default's bus: one process, listeners called synchronously in subscription order. */
export class MemoryEventBus implements EventBus {
  readonly #listeners = new Map<TBusChannel, Set<(message: string) => void>>();
  #closed = false;

  async publish(channel: TBusChannel, message: string): Promise<void> {
    if (this.#closed) return;
    for (const listener of [...(this.#listeners.get(channel) ?? [])]) listener(message);
  }

  async subscribe(channel: TBusChannel, listener: (message: string) => void): Promise<() => Promise<void>> {
    let listeners = this.#listeners.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.#listeners.set(channel, listeners);
    }
    const wrapped = (message: string) => listener(message);
    listeners.add(wrapped);
    return async () => {
      listeners.delete(wrapped);
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listeners.clear();
  }
}
