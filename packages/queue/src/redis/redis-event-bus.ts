import type { EventBus, TBusChannel } from "@raas/engine";
import { Redis } from "ioredis";
import { watchConnection } from "./watch-connection";

export interface RedisEventBusOptions {
  /** `redis://host:port/db`. */
  url: string;
  /** Prefix of the pub/sub channel names, so deployments sharing a Redis stay apart. Default `raas`. */
  prefix?: string;
  /** Called for connection errors (the bus reconnects by itself and restores its subscriptions). */
  onError?: (message: string, error?: unknown) => void;
}

type Listener = (message: string) => void;

/**
 * `EventBus` on Redis pub/sub: one connection publishes, another subscribes (a subscribed
 * connection can do nothing else). ioredis reconnects after Redis restarts and re-subscribes
 * the channels it had; messages published while it was away are lost, as the port allows.
 */
export class RedisEventBus implements EventBus {
  readonly #publisher: Redis;
  readonly #subscriber: Redis;
  readonly #prefix: string;
  readonly #listeners = new Map<string, Set<Listener>>();
  readonly #restoredListeners = new Set<() => void>();
  #closed = false;

  constructor(options: RedisEventBusOptions) {
    this.#prefix = options.prefix ?? "raas";
    const onError =
      options.onError ?? ((message, error) => console.error(`[raas/bus] ${message}`, error ?? ""));
    const connect = (role: string, onRestored?: () => void) => {
      const connection = new Redis(options.url, {
        maxRetriesPerRequest: null,
        autoResubscribe: true,
        // A group commit stores many transitions at once and publishes an event for each: sent
        // in one write per tick rather than one per message.
        enableAutoPipelining: role === "publisher",
        connectionName: `${this.#prefix}:raas-bus-${role}`,
      });
      watchConnection(connection, role, onError, onRestored);
      return connection;
    };
    this.#publisher = connect("publisher");
    // Back with its channels re-subscribed (ioredis sends SUBSCRIBE before it reports ready).
    this.#subscriber = connect("subscriber", () => {
      for (const listener of [...this.#restoredListeners]) {
        try {
          listener();
        } catch (error) {
          onError("a bus-restored listener threw", error);
        }
      }
    });
    this.#subscriber.on("message", (channel: string, message: string) => {
      for (const listener of [...(this.#listeners.get(channel) ?? [])]) {
        try {
          listener(message);
        } catch (error) {
          onError(`listener on ${channel} threw`, error);
        }
      }
    });
  }

  async publish(channel: TBusChannel, message: string): Promise<void> {
    if (this.#closed) return;
    await this.#publisher.publish(this.#channel(channel), message);
  }

  async subscribe(channel: TBusChannel, listener: Listener): Promise<() => Promise<void>> {
    if (this.#closed) return async () => {}; // a closed bus delivers nothing
    const name = this.#channel(channel);
    let listeners = this.#listeners.get(name);
    if (!listeners) {
      listeners = new Set();
      this.#listeners.set(name, listeners);
      await this.#subscriber.subscribe(name);
    }
    const wrapped: Listener = (message) => listener(message);
    listeners.add(wrapped);
    return async () => {
      const current = this.#listeners.get(name);
      if (!current?.delete(wrapped) || current.size > 0) return;
      this.#listeners.delete(name);
      if (!this.#closed) await this.#subscriber.unsubscribe(name);
    };
  }

  /** Calls `listener` each time the subscriber is back from a lost connection (messages meanwhile are lost). */
  onRestored(listener: () => void): () => void {
    this.#restoredListeners.add(listener);
    return () => this.#restoredListeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#listeners.clear();
    this.#restoredListeners.clear();
    await Promise.all([this.#publisher, this.#subscriber].map((c) => c.quit().catch(() => c.disconnect())));
  }

  #channel(channel: TBusChannel): string {
    return `${this.#prefix}:${channel}`;
  }
}
