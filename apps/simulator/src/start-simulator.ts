import { createQwen3ModelFamily, type ModelFamilyAdapter } from "@raas/inference";
import { SIMULATED_MODEL_NAME } from "@raas/shared";
import type { BlockPrefixCacheOptions } from "./cache/block-prefix-cache";
import type { SlotOccupancy } from "./engine/batch-slots";
import type { LatencyModelOptions } from "./engine/latency-model";
import { SimulatedModel, type SimulatorCounters } from "./engine/simulated-model";
import { createPolicy } from "./policies/create-policy";
import type { TPolicyConfigInput } from "./policies/policy-config.schema";
import { type SimulatorFault, startSimulatorServer } from "./server/simulator-server";

/** Options of an in-process simulator. */
export interface SimulatorOptions {
  /** TCP port; default 0 (a free port). */
  port?: number;
  /** Bind address; default 127.0.0.1. */
  host?: string;
  /** Model name reported in responses and metrics. Default `SIMULATED_MODEL_NAME` of `@raas/shared`. */
  modelName?: string;
  /** Policy config; default `{ kind: "scripted" }` (think, then call bash, every turn). */
  policy?: TPolicyConfigInput;
  /**
   * Seed of every random draw: seeded requests replay on any simulator of this seed; unseeded ones
   * sample afresh from a stream it starts. Default 0.
   */
  seed?: number;
  cache?: BlockPrefixCacheOptions;
  latency?: LatencyModelOptions;
  /** Batch slots. Default 32. */
  maxConcurrency?: number;
  /**
   * Decode time per streamed chunk (`stream: true` on `/v1/completions`), in ms; at least one
   * token a chunk. Default 10.
   */
  streamIntervalMs?: number;
  /** Model family; default Qwen3 with its real tokenizer. */
  family?: ModelFamilyAdapter;
}

export interface RunningSimulator {
  url: string;
  modelName: string;
  /** Injects a fault (see `SimulatorFault`); null clears it. */
  setFault(fault: SimulatorFault | null): void;
  /**
   * Live figures: counters, running/waiting requests, cache blocks, and the batch slots' occupancy
   * integrated since start (busy seconds, slot-seconds).
   */
  snapshot(): SimulatorCounters & SlotOccupancy & { running: number; waiting: number; cacheBlocks: number };
  /** Goes down: stops listening and drops every connection, in-flight requests included. */
  stopListening(): Promise<void>;
  /** Comes back on the same port with a cold prefix cache (a restarted server); counters are kept. */
  listenAgain(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the simulator in this process (for tests and benchmarks). */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const modelName = options.modelName ?? SIMULATED_MODEL_NAME;
  const model = new SimulatedModel({
    family: options.family ?? createQwen3ModelFamily(),
    policy: createPolicy(options.policy ?? { kind: "scripted" }),
    seed: options.seed,
    cache: options.cache,
    latency: options.latency,
    maxConcurrency: options.maxConcurrency,
    streamIntervalMs: options.streamIntervalMs,
  });
  const server = await startSimulatorServer({ model, modelName, host: options.host, port: options.port });
  return {
    url: server.url,
    modelName,
    setFault: server.setFault,
    snapshot: () => ({
      ...model.counters,
      running: model.slots.runningCount,
      waiting: model.slots.waitingCount,
      cacheBlocks: model.cache.size,
      ...model.slots.occupancy(),
    }),
    stopListening: server.stopListening,
    listenAgain: server.listenAgain,
    close: server.close,
  };
}
