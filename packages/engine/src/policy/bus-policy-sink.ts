import { type TPolicyState, ZPolicyState } from "@raas/shared";
import { BUS_CHANNELS, type EventBus } from "../ports/event-bus.port";
import type { PolicySink } from "./policy-control";

/**
 * Publishes every policy change on the bus (`BUS_CHANNELS.policy`), for the processes that hold
 * their own inference pools (workers, `followPolicy`). A failed publish is reported, not thrown:
 * the store already holds the state and followers reload it.
 */
export class BusPolicySink implements PolicySink {
  constructor(
    private readonly bus: EventBus,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  async applyPolicy(state: TPolicyState): Promise<void> {
    try {
      await this.bus.publish(BUS_CHANNELS.policy, JSON.stringify(state));
    } catch (error) {
      this.onError(error);
    }
  }
}

export interface FollowPolicyOptions {
  bus: EventBus;
  /** Where the state takes effect (this process's inference pool). */
  sink: PolicySink;
  /** Reads the stored state (the batch store's `getPolicyState`); applied at start and every `reloadIntervalMs`. */
  load?: () => Promise<TPolicyState | null>;
  /**
   * Re-applies the stored state this often, in ms, so that a bus message lost (delivery is at
   * most once) is made up for. Default 0: only at start.
   */
  reloadIntervalMs?: number;
  /** A malformed message, a failed load or apply. Default: ignored. */
  onError?: (error: unknown) => void;
}

/**
 * Applies the policy state of the deployment to this process: each bus message, and the stored
 * state at start (and every `reloadIntervalMs`). A stored state read while a message arrived is
 * dropped as possibly older than the message.
 */
export async function followPolicy(options: FollowPolicyOptions): Promise<{ stop(): Promise<void> }> {
  const onError = options.onError ?? (() => {});
  let messages = 0;
  const apply = async (state: TPolicyState) => {
    try {
      await options.sink.applyPolicy(state);
    } catch (error) {
      onError(error);
    }
  };
  const unsubscribe = await options.bus.subscribe(BUS_CHANNELS.policy, (message) => {
    messages += 1;
    let parsed: ReturnType<typeof ZPolicyState.safeParse>;
    try {
      parsed = ZPolicyState.safeParse(JSON.parse(message));
    } catch (error) {
      onError(error);
      return;
    }
    if (!parsed.success) {
      onError(new Error(`malformed policy message: ${parsed.error.message}`));
      return;
    }
    void apply(parsed.data);
  });
  const reload = async () => {
    if (!options.load) return;
    const before = messages;
    try {
      const state = await options.load();
      if (state && messages === before) await apply(state);
    } catch (error) {
      onError(error);
    }
  };
  await reload();
  const interval =
    options.load && (options.reloadIntervalMs ?? 0) > 0
      ? setInterval(() => void reload(), options.reloadIntervalMs)
      : null;
  interval?.unref();
  return {
    async stop() {
      if (interval) clearInterval(interval);
      await unsubscribe();
    },
  };
}
