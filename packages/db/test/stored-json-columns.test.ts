import type { TGroupMember } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createJobStore,
  PrismaBatchStore,
  PrismaGatewayCallStore,
  type PrismaJobStore,
  PrismaWorkerStore,
} from "../src/index";
import { makeGroup, makeRun, makeStep } from "./support/batch-fixtures";
import { makeJob, makeTurn } from "./support/job-fixtures";

// JSON columns are read through their schemas: a value changed behind the store's back fails at
// the read with an INTERNAL error naming the table, column and row, never deeper in the engine.

let jobStore: PrismaJobStore;
let batches: PrismaBatchStore;

beforeAll(async () => {
  jobStore = await createJobStore({ dataDir: "memory://" });
  batches = new PrismaBatchStore(jobStore.prisma);
});

afterAll(async () => {
  await jobStore.close();
});

async function corrupt(sql: string, ...values: unknown[]): Promise<void> {
  expect(await jobStore.prisma.$executeRawUnsafe(sql, ...values)).toBe(1);
}

describe("a malformed stored JSON value", () => {
  it("fails a job read with the column and the row, and a sound job still reads", async () => {
    const sound = makeJob();
    const broken = makeJob({ timeoutsMs: { run: 60_000 } });
    await jobStore.insertJobs([sound, broken]);
    await corrupt(`UPDATE jobs SET timeouts_ms = '{"run": "soon"}' WHERE id = $1`, broken.id);

    await expect(jobStore.getJob(broken.id)).rejects.toMatchObject({
      failure: {
        code: "INTERNAL",
        message: expect.stringMatching(
          new RegExp(
            `^stored jobs\\.timeouts_ms of row ${broken.id} is malformed: timeouts_ms\\.run: .*number`,
          ),
        ),
        details: { table: "jobs", column: "timeouts_ms", rowId: broken.id },
      },
    });
    expect(await jobStore.getJob(sound.id)).toEqual(sound);
  });

  it("fails a job's payload that is not an object", async () => {
    const job = makeJob();
    await jobStore.insertJobs([job]);
    await corrupt(`UPDATE jobs SET payload = '[1, 2]' WHERE id = $1`, job.id);
    await expect(jobStore.readJob(job.id)).rejects.toThrow(
      `stored jobs.payload of row ${job.id} is malformed`,
    );
  });

  it("fails a turn whose sampling parameters are not sampling parameters", async () => {
    const job = makeJob();
    await jobStore.insertJobs([job]);
    const sampling = { temperature: 1, topP: 1, topK: -1, seed: null, maxTokens: 512 };
    const turn = makeTurn(job.id, 0, { sampling });
    await jobStore.appendTurns([turn]);
    expect((await jobStore.listTurns(job.id)).map((read) => read.sampling)).toEqual([sampling]);
    await corrupt(`UPDATE turns SET sampling = '{"temperature": "hot"}' WHERE job_id = $1`, job.id);
    await expect(jobStore.listTurns(job.id)).rejects.toThrow(
      `stored turns.sampling of row ${job.id} turn 0 is malformed: sampling.temperature:`,
    );
  });

  it("fails a gateway call whose messages are not a list", async () => {
    const calls = new PrismaGatewayCallStore(jobStore.sql);
    const job = makeJob();
    const call = {
      id: "gwc_1",
      seq: 0,
      jobId: job.id,
      parentCallId: null,
      promptIds: [1, 2, 3],
      responseIds: [4],
      logprobs: [-0.5],
      finishReason: "stop",
      backendId: "sim-0",
      weightVersion: null,
      cachedPromptTokens: null,
      latencyMs: 1,
      overheadMs: 0.5,
      messages: [{ role: "user", content: "hi" }],
      tools: [],
      answer: { role: "assistant", content: "hello" },
      createdAtMs: 1_000,
    };
    await calls.append(call);
    expect(await calls.listCalls(job.id)).toEqual([call]);
    await corrupt(`UPDATE gateway_calls SET messages = '{"role": "user"}' WHERE job_id = $1`, job.id);
    await expect(calls.listCalls(job.id)).rejects.toThrow(
      `stored gateway_calls.messages of row ${job.id}#0 is malformed: messages: expected array`,
    );
  });

  it("fails a step whose statistics lost a counter, and a group whose member has no slot", async () => {
    const run = makeRun();
    await batches.insertRun(run);
    const step = makeStep(run.id);
    await batches.insertStep(step);
    const group = makeGroup(step);
    await batches.insertGroups([group]);
    const { trajectories: _, ...statsWithoutCount } = step.stats;
    await corrupt(
      `UPDATE training_steps SET stats = $1::jsonb WHERE id = $2`,
      JSON.stringify(statsWithoutCount),
      step.id,
    );
    const [{ slot: __, ...memberWithoutSlot }, ...others] = group.members as [
      TGroupMember,
      ...TGroupMember[],
    ];
    const members = JSON.stringify([memberWithoutSlot, ...others]);
    await corrupt(`UPDATE training_groups SET members = $1::jsonb WHERE id = $2`, members, group.id);

    await expect(batches.getStep(step.id)).rejects.toThrow(
      `stored training_steps.stats of row ${step.id} is malformed: stats.trajectories:`,
    );
    await expect(batches.listGroups(step.id)).rejects.toThrow(
      `stored training_groups.members of row ${group.id} is malformed: members[0].slot:`,
    );
    expect(await batches.getRun(run.id)).toEqual(run);
  });

  it("fails a worker whose stored backends are not backend views", async () => {
    const workers = new PrismaWorkerStore(jobStore.prisma);
    const worker = {
      id: "node-1:42:ab",
      hostname: "node-1",
      pid: 42,
      labels: [],
      pools: { init: { concurrency: 2, active: 0 } },
      sandboxes: 0,
      startedAtMs: 1_000,
      heartbeatAtMs: 1_000,
    };
    await workers.register(worker);
    expect((await workers.get(worker.id))?.pools).toEqual(worker.pools);
    await corrupt(`UPDATE workers SET backends = '[{"id": "vllm-0"}]' WHERE id = $1`, worker.id);
    await expect(workers.get(worker.id)).rejects.toThrow(
      `stored workers.backends of row ${worker.id} is malformed: backends[0].kind:`,
    );
  });
});
