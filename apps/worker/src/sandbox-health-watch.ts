import {
  type Clock,
  type Sandbox,
  type SandboxRuntime,
  type SandboxSpec,
  type SandboxTemplate,
  systemClock,
} from "@raas/engine";
import { failureOf } from "@raas/shared";
import type { Logger } from "pino";
import { SandboxStartRecord } from "./sandbox-start-record";

export interface SandboxHealthWatchOptions {
  /** The worker's runtime: watched for the jobs' starts, and used as it is for probes. */
  runtime: SandboxRuntime;
  /** Consecutive infrastructure start failures before a probe decides whether the worker is sick. */
  failuresBeforeProbe: number;
  /** Time between probes while sick, in ms. */
  probeIntervalMs: number;
  clock?: Clock;
  /**
   * Enough starts failed in a row and a probe is running: take no new work until it answers (jobs
   * failing meanwhile would use up their attempts here). Default: nothing.
   */
  onSuspect?: () => void;
  /** The probe failed too: the worker is sick; take no work and say why. */
  onSick: (reason: string) => void;
  /** A start succeeded (a probe's or a job's) after `onSuspect` or `onSick`: take work again. */
  onRecovered: () => void;
  logger?: Logger;
}

/**
 * Watches a worker's own sandbox starts and tells when the worker is sick (its sandboxes cannot
 * start: a full or broken base directory, a missing binary) and when it is well again. Hand the
 * jobs {@link SandboxHealthWatch.runtime}: a start the policy caused to fail, a cancelled start
 * and a template's own failure count as nothing. While sick, a throwaway sandbox is started every
 * `probeIntervalMs`; the first that starts cures the worker.
 */
export class SandboxHealthWatch {
  /** The runtime to give the handlers: the worker's own, with its starts observed. */
  readonly runtime: SandboxRuntime;
  readonly #options: SandboxHealthWatchOptions;
  readonly #clock: Clock;
  readonly #record: SandboxStartRecord;
  #cancelProbeTimer: (() => void) | null = null;
  #isClosed = false;

  constructor(options: SandboxHealthWatchOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#record = new SandboxStartRecord(options.failuresBeforeProbe, () => this.#clock.now());
    this.runtime = this.#watched(options.runtime);
  }

  /** Why the worker is sick; null while it is not. */
  reason(): string | null {
    return this.#record.reason();
  }

  get isSick(): boolean {
    return this.#record.health === "sick";
  }

  /** Stops probing. Idempotent. */
  close(): void {
    this.#isClosed = true;
    this.#cancelProbeTimer?.();
    this.#cancelProbeTimer = null;
  }

  #started(): void {
    const wasHealthy = this.#record.health === "healthy";
    if (this.#record.started() === "recovered") this.#recover();
    else if (!wasHealthy) this.#options.onRecovered(); // a job's start succeeded while the probe ran
  }

  #failed(error: unknown): void {
    if (this.#record.failed(messageOf(error)) !== "probe") return;
    this.#options.onSuspect?.();
    void this.#probe();
  }

  async #probe(): Promise<void> {
    const result = await this.#tryStart();
    if (this.#isClosed) return;
    const health = this.#record.health;
    if (health === "probing") {
      if (this.#record.probed(result) === "sick") {
        const reason = this.#record.reason() ?? "sandboxes fail to start";
        this.#options.logger?.error(
          { reason },
          "sandboxes fail to start here: this worker takes no new work",
        );
        this.#options.onSick(reason);
        this.#scheduleProbe();
      } else this.#options.onRecovered(); // the specs were at fault, not this worker
      return;
    }
    if (health !== "sick") return;
    if (result.ok) this.#started();
    else {
      this.#record.probeFailedWhileSick(result.message);
      this.#scheduleProbe();
    }
  }

  #scheduleProbe(): void {
    this.#cancelProbeTimer?.();
    this.#cancelProbeTimer = this.#clock.setTimer(() => {
      this.#cancelProbeTimer = null;
      if (!this.#isClosed) void this.#probe();
    }, this.#options.probeIntervalMs);
  }

  #recover(): void {
    this.#cancelProbeTimer?.();
    this.#cancelProbeTimer = null;
    this.#options.logger?.info("sandboxes start again here: this worker takes work again");
    this.#options.onRecovered();
  }

  /**
   * Starts and closes a sandbox with the runtime's defaults. Cold: a spec with env is never taken
   * from a warm pool, whose sandboxes started before the host broke.
   */
  async #tryStart(): Promise<{ ok: true } | { ok: false; message: string }> {
    let sandbox: Sandbox;
    try {
      sandbox = await this.#options.runtime.create({ env: { RAAS_SANDBOX_PROBE: "1" } });
    } catch (error) {
      return { ok: false, message: messageOf(error) };
    }
    await sandbox.close().catch(() => undefined);
    return { ok: true };
  }

  #watched(runtime: SandboxRuntime): SandboxRuntime {
    const observe = async <T>(
      start: () => Promise<T>,
      isStartFailure: (error: unknown) => Promise<boolean>,
    ) => {
      try {
        const value = await start();
        this.#started();
        return value;
      } catch (error) {
        if (await isStartFailure(error)) this.#failed(error);
        throw error;
      }
    };
    const watched: SandboxRuntime = {
      name: runtime.name,
      ...(runtime.toolSpecs && { toolSpecs: runtime.toolSpecs }),
      create: (spec: SandboxSpec, signal?: AbortSignal) =>
        observe(
          () => runtime.create(spec, signal),
          async (error) => isInfrastructureFailure(error, signal),
        ),
      onEvent: (listener) => runtime.onEvent(listener),
      closeAll: () => runtime.closeAll(),
    };
    if (runtime.limitsInForce) {
      const limitsInForce = runtime.limitsInForce.bind(runtime);
      watched.limitsInForce = () => limitsInForce();
    }
    if (runtime.prepareTemplate) {
      const prepareTemplate = runtime.prepareTemplate.bind(runtime);
      watched.prepareTemplate = (spec, prepare, signal, options) => {
        // Once `prepare` runs the sandbox has started; what fails after is the task's setup.
        let hasStarted = false;
        return observe(
          () =>
            prepareTemplate(
              spec,
              (sandbox) => {
                hasStarted = true;
                this.#started();
                return prepare(sandbox);
              },
              signal,
              options,
            ),
          async (error) => !hasStarted && isInfrastructureFailure(error, signal),
        );
      };
    }
    if (runtime.createFrom) {
      const createFrom = runtime.createFrom.bind(runtime);
      watched.createFrom = (template: SandboxTemplate | PromiseLike<SandboxTemplate>, spec, signal) =>
        observe(
          () => createFrom(template, spec, signal),
          // A template that failed is its group INIT's failure, reported there.
          async (error) =>
            isInfrastructureFailure(error, signal) &&
            (await Promise.resolve(template).then(
              () => true,
              () => false,
            )),
        );
    }
    return watched;
  }
}

/** Not the policy's doing (`failureOf(error, "policy")`), not a cancellation: the host's. */
function isInfrastructureFailure(error: unknown, signal: AbortSignal | undefined): boolean {
  if (signal?.aborted) return false;
  if (failureOf(error, "policy") !== null) return false;
  return !(
    typeof error === "object" &&
    error !== null &&
    (error as { name?: unknown }).name === "AbortError"
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
