import { describe, expect, it } from "vitest";
import type { SimJob, TStage } from "./scale-sim.types";
import { type SimWorker, WorkerPool } from "./worker-pool";

const job = (): SimJob => ({
  stageMs: { init: 1, run: 1, eval: 1 },
  turns: 1,
  readyAtMs: 0,
  initWaitMs: 0,
  runEvalWaitMs: 0,
});

function poolWithLog(affinity: boolean) {
  const taken: Array<{ worker: number; stage: TStage }> = [];
  const pool = new WorkerPool({ nodes: 3, pools: { init: 1, run: 1, eval: 1 }, affinity }, (worker, stage) =>
    taken.push({ worker: worker.index, stage }),
  );
  for (const worker of pool.workers) pool.dispatch(worker, 0);
  return { pool, taken };
}

describe("WorkerPool", () => {
  it("under affinity, RUN goes to the worker holding the sandbox even when others are idle", () => {
    const { pool, taken } = poolWithLog(true);
    const holder = pool.workers[2] as SimWorker;
    pool.enqueue(job(), "run", holder, 5);
    expect(taken).toEqual([{ worker: 2, stage: "run" }]);
    // A second RUN for the same worker waits for its slot, not for anyone else's.
    pool.enqueue(job(), "run", holder, 6);
    expect(taken).toHaveLength(1);
    pool.release(holder, "run");
    pool.dispatch(holder, 7);
    expect(taken).toEqual([
      { worker: 2, stage: "run" },
      { worker: 2, stage: "run" },
    ]);
  });

  it("shared INIT work goes to waiting workers in turn, and a worker holding its limit of sandboxes takes none", () => {
    const { pool, taken } = poolWithLog(true);
    for (let i = 0; i < 3; i++) pool.enqueue(job(), "init", null, i);
    expect(taken.map((t) => t.worker)).toEqual([0, 1, 2]);
    const first = pool.workers[0] as SimWorker;
    // Worker 0 finishes INIT but still holds the sandbox; at 3 sandboxes (1+1+1 pools) it stops.
    pool.release(first, "init");
    first.sandboxes = 3;
    pool.dispatch(first, 10);
    pool.enqueue(job(), "init", null, 11);
    expect(taken).toHaveLength(3);
  });

  it("without affinity, RUN goes through the shared queue to any free worker", () => {
    const { pool, taken } = poolWithLog(false);
    pool.enqueue(job(), "run", pool.workers[2] as SimWorker, 0);
    expect(taken).toEqual([{ worker: 0, stage: "run" }]);
  });
});
