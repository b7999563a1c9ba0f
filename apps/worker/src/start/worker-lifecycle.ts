import type { Logger } from "pino";
import { waitUntilIdle } from "../idle";
import type { WorkerState } from "../start-worker";
import type { WorkerConfig } from "../worker-config";
import type { WorkerHttp } from "../worker-http";
import type { WorkerParts } from "./worker-parts.types";

/**
 * A worker's state, its close (the engine stops first, giving running stages the abort grace; the
 * HTTP listener closes last) and its drain. Both are idempotent; `close()` during a drain's wait
 * stops at once.
 */
export class WorkerLifecycle {
  #state: WorkerState = "running";
  #closing: Promise<void> | null = null;
  #draining: Promise<void> | null = null;
  #http: WorkerHttp | null = null;
  readonly #config: WorkerConfig;
  readonly #parts: WorkerParts;
  readonly #logger: Logger;

  constructor(config: WorkerConfig, parts: WorkerParts) {
    this.#config = config;
    this.#parts = parts;
    this.#logger = parts.host.logger;
  }

  state(): WorkerState {
    return this.#state;
  }

  /** The listener serving `/health` and `/metrics`, closed last. */
  serve(http: WorkerHttp): void {
    this.#http = http;
  }

  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  drainAndStop(options: { graceMs?: number } = {}): Promise<void> {
    this.#draining ??= this.#drainAndStop(options.graceMs ?? this.#config.stopGraceMs);
    return this.#draining;
  }

  async #close(): Promise<void> {
    const { host, composed, followers, registration } = this.#parts;
    this.#state = "stopping";
    registration.unsubscribeStore();
    host.sandboxHealth.close();
    await composed.engine.stop({ graceMs: this.#config.abortGraceMs });
    await host.gateway.close();
    await registration.workers.close();
    await followers.backends.close();
    await host.sandboxRuntime.closeAll();
    await followers.sandboxEvents.close();
    await host.agentHandlers.close();
    await followers.policy?.stop();
    await host.inference.close();
    await composed.close();
    await this.#http?.close();
    this.#state = "stopped";
    this.#logger.info({ workerId: host.workerId }, "worker stopped");
  }

  async #drainAndStop(graceMs: number): Promise<void> {
    if (this.#closing) return this.#closing;
    const { host, composed, registration } = this.#parts;
    const { workerId } = host;
    this.#state = "draining";
    registration.workers.initGate.hold("stopping");
    await composed.workers
      .setDraining(workerId, true)
      .catch((error: unknown) =>
        this.#logger.warn({ err: error, workerId }, "could not mark this worker draining"),
      );
    this.#logger.info({ workerId, graceMs }, "draining: no new jobs; waiting for the jobs held here");
    const idle = await waitUntilIdle(composed.engine, graceMs, () => this.#closing !== null);
    if (!idle)
      this.#logger.warn({ workerId, graceMs }, "grace period over: stopping the jobs still held here");
    await this.close();
  }
}
