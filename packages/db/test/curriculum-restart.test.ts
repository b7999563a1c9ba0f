import {
  HandlerRegistry,
  MemoryJobQueue,
  MemoryJobStore,
  RolloutEngine,
  type TaskHandler,
} from "@raas/engine";
import { BatchSystem, type TaskCatalog } from "@raas/training";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createJobStore, PrismaBatchStore, PrismaCurriculumStore, type PrismaJobStore } from "../src/index";
import {
  dropSchema,
  freshSchemaName,
  requirePostgres,
  TEST_DATABASE_URL,
} from "./support/postgres-test-database";

/** Reward by group slot, from the payload. */
const handler: TaskHandler<{ rewards: number[] }, null, null> = {
  kind: "slots",
  payloadSchema: z.object({ rewards: z.array(z.number()) }).strict(),
  async init() {
    return null;
  },
  async run() {
    return null;
  },
  async eval(ctx) {
    const slot = typeof ctx.job.metadata?.slot === "number" ? ctx.job.metadata.slot : 0;
    return { reward: ctx.payload.rewards[slot] ?? 0 };
  },
};

const TASKS = [
  ...["easy-1", "easy-2", "easy-3"].map((taskId) => ({
    taskId,
    kind: "slots",
    payload: { rewards: [1, 1] },
  })),
  ...["mid-1", "mid-2", "mid-3"].map((taskId) => ({ taskId, kind: "slots", payload: { rewards: [1, 0] } })),
];
const catalog: TaskCatalog = {
  list: async () => [{ name: "cur", size: TASKS.length, kinds: ["slots"] }],
  tasks: async (name) => (name === "cur" ? TASKS : null),
};

async function until(predicate: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const schema = freshSchemaName();
const opened: PrismaJobStore[] = [];
const systems: BatchSystem[] = [];
afterAll(async () => {
  for (const store of opened) await store.close();
  await dropSchema(schema);
});

describe("adaptive task sampling on PostgreSQL: the policy state survives a restart", () => {
  it("a new batch system on a new connection keeps retired tasks out and goes on with the draw count", async () => {
    await requirePostgres();
    const engine = new RolloutEngine({
      store: new MemoryJobStore(),
      queue: new MemoryJobQueue(),
      handlers: new HandlerRegistry().register(handler),
    });
    await engine.start();
    const open = async () => {
      const jobStore = await createJobStore({ databaseUrl: TEST_DATABASE_URL, schema });
      opened.push(jobStore);
      const system = new BatchSystem({
        engine,
        store: new PrismaBatchStore(jobStore.prisma),
        curriculum: new PrismaCurriculumStore(jobStore.prisma),
        catalog,
        reconcileEveryMs: 200,
      });
      await system.start();
      systems.push(system);
      return { system, curriculum: new PrismaCurriculumStore(jobStore.prisma) };
    };
    try {
      let { system, curriculum } = await open();
      const { run } = await system.createRun({ name: "restart" });
      const runStep = async (i: number) => {
        const { step } = await system.createStep({
          runId: run.id,
          stepKey: `s${i}`,
          tasks: { type: "dataset", dataset: "cur" },
          groupSize: 2,
          groups: 1,
          shuffleSeed: 5,
          taskSampling: {
            policy: "adaptive",
            windowSize: 4,
            retireAfterSolvedInARow: 2,
            reprobeEvery: 1_000,
          },
          dynamicSampling: { policy: "none" },
        });
        await until(async () => (await system.getStep(step.id)).status !== "running");
        return (await system.listGroups(step.id)).map((g) => g.taskId);
      };
      let i = 0;
      for (; i < 60; i += 1) {
        await runStep(i);
        if ((await system.curriculumStats(run.id)).current?.unexplored === 0) break;
      }
      // The close's snapshot is stored right after the step's status changes.
      await until(async () => (await system.curriculumStats(run.id)).snapshots.length === i + 1);
      const before = await system.curriculumStats(run.id);
      expect(before.current).toMatchObject({ total: 6, unexplored: 0, retired: 3, active: 3 });
      expect(before.snapshots).toHaveLength(i + 1);
      const draws = (await curriculum.getSamplerState(run.id, "cur"))?.draws ?? 0;
      expect(draws).toBeGreaterThanOrEqual(6);

      await system.stop();
      ({ system, curriculum } = await open());
      const drawn: string[] = [];
      for (let j = 1; j <= 6; j += 1) drawn.push(...(await runStep(i + j)));
      expect(drawn.filter((id) => id.startsWith("easy"))).toEqual([]);
      expect(drawn).toHaveLength(6);
      expect((await curriculum.getSamplerState(run.id, "cur"))?.draws).toBe(draws + 6);
      await until(async () => (await system.curriculumStats(run.id)).snapshots.length === i + 7);
      const after = await system.curriculumStats(run.id);
      expect(after.current?.retired).toBe(3);
    } finally {
      for (const system of systems) await system.stop();
      await engine.stop({ graceMs: 100 });
    }
  }, 180_000);
});
