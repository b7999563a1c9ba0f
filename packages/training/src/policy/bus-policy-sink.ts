import { BUS_CHANNELS, type Clock, type EventBus, type PolicySink, systemClock } from "@raas/engine";
import { type TPolicyState, ZPolicyState } from "@raas/shared";

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
  /**
   * Reads the stored states, one per policy (the batch store's `listPolicyStates`); applied at
   * start and every `reloadIntervalMs`.
   */
  load?: () => Promise<readonly TPolicyState[]>;
  /**
   * Re-applies the stored state this often, in ms, so that a bus message lost (delivery is at
   * most once) is made up for. Default 0: only at start.
   */
  reloadIntervalMs?: number;
  /** A malformed message, a failed load or apply. Default: ignored. */
  onError?: (error: unknown) => void;
  /** Times the reloads. Default: the system clock (its timers never keep a process alive). */
  clock?: Clock;
}

/**
 * Applies the policy states of the deployment to this process: each bus message, and the stored
 * states at start (and every `reloadIntervalMs`). A policy's stored state read while a message
 * about that policy arrived is dropped as possibly older than the message.
 */
export async function followPolicy(options: FollowPolicyOptions): Promise<{ stop(): Promise<void> }> {
  const onError = options.onError ?? (() => {});
  /** Messages received per policy id, to tell whether a stored state was read before one. */
  const messages = new Map<string, number>();
  const apply = async (state: TPolicyState) => {
    try {
      await options.sink.applyPolicy(state);
    } catch (error) {
      onError(error);
    }
  };
  const unsubscribe = await options.bus.subscribe(BUS_CHANNELS.policy, (message) => {
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
    messages.set(parsed.data.policyId, (messages.get(parsed.data.policyId) ?? 0) + 1);
    void apply(parsed.data);
  });
  const reload = async () => {
    if (!options.load) return;
    const before = new Map(messages);
    try {
      for (const state of await options.load()) {
        if ((messages.get(state.policyId) ?? 0) === (before.get(state.policyId) ?? 0)) await apply(state);
      }
    } catch (error) {
      onError(error);
    }
  };
  await reload();
  const clock = options.clock ?? systemClock;
  const intervalMs = options.reloadIntervalMs ?? 0;
  let cancelReload: (() => void) | null = null;
  let isStopped = false;
  // The next reload is timed from the end of the last one, so two never overlap.
  const scheduleReload = () => {
    cancelReload = clock.setTimer(() => {
      void reload().finally(() => {
        if (!isStopped) scheduleReload();
      });
    }, intervalMs);
  };
  if (options.load && intervalMs > 0) scheduleReload();
  return {
    async stop() {
      isStopped = true;
      cancelReload?.();
      await unsubscribe();
    },
  };
}
