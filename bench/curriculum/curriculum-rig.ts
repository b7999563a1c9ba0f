// One strategy's rig: a RolloutEngine on memory adapters whose only handler plays the learning
// model (RUN records one turn of simulated tokens, EVAL rewards a success with 1), and a
// BatchSystem over it with a dataset of the model's tasks. No sandbox, no inference: 300 steps
// of tens of groups must run in minutes on two cores; what is measured is which tasks get drawn.
import {
  HandlerRegistry,
  MemoryJobQueue,
  MemoryJobStore,
  RolloutEngine,
  type TaskHandler,
} from "@raas/engine";
import { BatchSystem, MemoryBatchStore, MemoryCurriculumStore, type TaskCatalog } from "@raas/training";
import { z } from "zod";
import { createRandom } from "../scale/random";
import { type LearningModel, type SimTask, trajectoryTokens } from "./learning-model";

const CURRICULUM_TASK_KIND = "curriculum-sim";
export const CURRICULUM_DATASET = "curriculum-bench";

const ZSimPayload = z.object({ taskId: z.string().min(1) }).strict();

interface SimRun {
  isSuccess: boolean;
}

/** Generated tokens per step (by the job's batch id, which is the step id). */
type TokenLedger = Map<string, number>;

function createSimHandler(
  model: LearningModel,
  random: () => number,
  tokens: TokenLedger,
): TaskHandler<z.infer<typeof ZSimPayload>, null, SimRun> {
  return {
    kind: CURRICULUM_TASK_KIND,
    payloadSchema: ZSimPayload,
    async init() {
      return null;
    },
    async run(ctx) {
      // Yield once: the engine's other jobs interleave as they would with real work.
      await new Promise((resolve) => setImmediate(resolve));
      const isSuccess = random() < model.successProbability(ctx.payload.taskId);
      const count = trajectoryTokens(isSuccess, random);
      const stepId = ctx.job.batchId ?? "";
      tokens.set(stepId, (tokens.get(stepId) ?? 0) + count);
      // One token stands for the turn: the ledger above counts the simulated ones (storing
      // hundreds of ids per trajectory would only cost the bench CPU time).
      ctx.record.turn({
        index: 0,
        promptIds: [1, 2, 3],
        responseIds: [7],
        logprobs: [-0.5],
        backendId: "learning-model",
        weightVersion: null,
        cachedPromptTokens: null,
        latencyMs: 0,
        finishReason: "stop",
        text: null,
      });
      return { isSuccess };
    },
    async eval(ctx) {
      return { reward: ctx.run.isSuccess ? 1 : 0 };
    },
  };
}

export interface CurriculumRig {
  engine: RolloutEngine;
  batches: BatchSystem;
  tokens: TokenLedger;
  close(): Promise<void>;
}

export async function startCurriculumRig(options: {
  tasks: readonly SimTask[];
  model: LearningModel;
  seed: number;
  concurrency: number;
}): Promise<CurriculumRig> {
  const tokens: TokenLedger = new Map();
  const handlers = new HandlerRegistry().register(
    createSimHandler(options.model, createRandom(options.seed), tokens),
  );
  const store = new MemoryJobStore();
  const queue = new MemoryJobQueue();
  const stage = { concurrency: options.concurrency };
  const engine = new RolloutEngine({
    store,
    queue,
    handlers,
    pools: { init: stage, run: stage, eval: stage },
  });
  await engine.start();
  const stepTasks = options.tasks.map((task) => ({
    taskId: task.taskId,
    kind: CURRICULUM_TASK_KIND,
    payload: { taskId: task.taskId },
  }));
  const catalog: TaskCatalog = {
    list: async () => [{ name: CURRICULUM_DATASET, size: stepTasks.length, kinds: [CURRICULUM_TASK_KIND] }],
    tasks: async (name) => (name === CURRICULUM_DATASET ? stepTasks : null),
  };
  const batches = new BatchSystem({
    engine,
    store: new MemoryBatchStore(),
    curriculum: new MemoryCurriculumStore(),
    catalog,
  });
  await batches.start();
  return {
    engine,
    batches,
    tokens,
    async close() {
      await batches.stop();
      await engine.stop({ graceMs: 100 });
      await queue.close();
      await store.close();
    },
  };
}
