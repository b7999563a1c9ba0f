import { buildGatewayTraces, type GatewayCallStore, MemoryGatewayCallStore } from "@raas/engine";
import type { TGatewayCallRecord } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJobStore, PrismaGatewayCallStore, type PrismaJobStore } from "../src/index";
import {
  dropSchema,
  freshSchemaName,
  requirePostgres,
  TEST_DATABASE_URL,
} from "./support/postgres-test-database";

/** A call whose logprobs are exact in single precision (the database stores Float32). */
function call(jobId: string, seq: number, over: Partial<TGatewayCallRecord> = {}): TGatewayCallRecord {
  return {
    id: `gwc_${jobId}_${seq}`,
    seq,
    jobId,
    parentCallId: seq === 0 ? null : `gwc_${jobId}_${seq - 1}`,
    promptIds: [151_644, 872, 198, 1_000 + seq, -1, 2_147_483_647],
    responseIds: [9, 8, 7 + seq],
    logprobs: [-0.5, -0.25, -1.125],
    finishReason: "stop",
    backendId: "sim-0",
    weightVersion: "v3",
    cachedPromptTokens: seq === 0 ? null : 4,
    latencyMs: 12.75,
    overheadMs: 0.4375,
    messages: [{ role: "user", content: `task ${seq}` }],
    tools: [{ type: "function", function: { name: "bash", parameters: { type: "object" } } }],
    answer: { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function" }] },
    createdAtMs: 1_764_000_000_000.5 + seq,
    ...over,
  };
}

function describeContract(name: string, open: () => Promise<GatewayCallStore>) {
  describe(name, () => {
    it("round-trips every field and lists a job's calls in seq order, apart from other jobs'", async () => {
      const store = await open();
      const job = `job_${freshSchemaName()}`;
      await store.append(call(job, 2));
      await store.append(call(job, 0));
      await store.append(call(`${job}_other`, 0));
      const violation = { required: "bash", calledTools: [], message: "asked for bash, called none" };
      await store.append(
        call(job, 1, { logprobs: [], finishReason: null, backendId: null, toolChoiceViolation: violation }),
      );
      const listed = await store.listCalls(job);
      expect(listed).toEqual([
        call(job, 0),
        call(job, 1, { logprobs: [], finishReason: null, backendId: null, toolChoiceViolation: violation }),
        call(job, 2),
      ]);
      expect(await store.listCalls("job_none")).toEqual([]);
    });

    it("replaces a call written again under the same seq", async () => {
      const store = await open();
      const job = `job_${freshSchemaName()}`;
      await store.append(call(job, 0));
      await store.append(call(job, 0, { id: "gwc_again", responseIds: [1, 2, 3] }));
      expect(await store.listCalls(job)).toEqual([call(job, 0, { id: "gwc_again", responseIds: [1, 2, 3] })]);
    });

    it("keeps whether a call's prompt was rendered with thinking on, and its absence", async () => {
      const store = await open();
      const job = `job_${freshSchemaName()}`;
      await store.append(call(job, 0, { enableThinking: false }));
      await store.append(call(job, 1, { enableThinking: true }));
      await store.append(call(job, 2));
      const stored = await store.listCalls(job);
      expect(stored.map((c) => c.enableThinking)).toEqual([false, true, undefined]);
      expect(stored[2]).not.toHaveProperty("enableThinking");
    });

    it("deletes one job's calls (a fresh attempt), leaving other jobs' alone", async () => {
      const store = await open();
      const job = `job_${freshSchemaName()}`;
      await store.append(call(job, 0));
      await store.append(call(job, 1));
      await store.append(call(`${job}_other`, 0));
      await store.deleteCalls(job);
      expect(await store.listCalls(job)).toEqual([]);
      expect((await store.listCalls(`${job}_other`)).map((c) => c.seq)).toEqual([0]);
    });

    it("stores appends made at once (one group), a call written twice as its later write", async () => {
      const store = await open();
      const job = `job_${freshSchemaName()}`;
      await Promise.all([
        ...Array.from({ length: 40 }, (_, seq) => store.append(call(job, seq))),
        store.append(call(job, 7, { id: "gwc_rewritten", responseIds: [70] })),
      ]);
      const listed = await store.listCalls(job);
      expect(listed.map((c) => c.seq)).toEqual(Array.from({ length: 40 }, (_, seq) => seq));
      expect(listed[7]).toEqual(call(job, 7, { id: "gwc_rewritten", responseIds: [70] }));
      expect(listed[8]).toEqual(call(job, 8));
    });

    it("deletes after the appends made before it, even those not yet awaited", async () => {
      const store = await open();
      const job = `job_${freshSchemaName()}`;
      const appended = Promise.all([0, 1, 2].map((seq) => store.append(call(job, seq))));
      await store.deleteCalls(job);
      await appended;
      expect(await store.listCalls(job)).toEqual([]);
    });
  });
}

/** A call the database refuses (its seq is past INTEGER): it fails alone, the others of its group are stored. */
function describeRefusedCall(open: () => Promise<GatewayCallStore>) {
  it("fails a call the database refuses on its own; the calls written with it are stored", async () => {
    const store = await open();
    const job = `job_${freshSchemaName()}`;
    const outcomes = await Promise.allSettled([
      store.append(call(job, 0)),
      store.append(call(job, 1)),
      store.append(call(job, 2 ** 31)),
      store.append(call(job, 2)),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      "fulfilled",
      "fulfilled",
      "rejected",
      "fulfilled",
    ]);
    expect((await store.listCalls(job)).map((c) => c.seq)).toEqual([0, 1, 2]);
  });
}

describeContract("MemoryGatewayCallStore", async () => new MemoryGatewayCallStore());

describe("PrismaGatewayCallStore", () => {
  let pglite: PrismaJobStore;
  beforeAll(async () => {
    pglite = await createJobStore({ dataDir: "memory://" });
  });
  afterAll(async () => {
    await pglite?.close();
  });
  describeContract("on PGlite", async () => new PrismaGatewayCallStore(pglite.sql));
  describe("on PGlite, a statement per call", () => {
    describeRefusedCall(async () => new PrismaGatewayCallStore(pglite.sql, { maxCallsPerStatement: 1 }));
  });
  describe("on PGlite, calls in groups", () => {
    describeRefusedCall(async () => new PrismaGatewayCallStore(pglite.sql));
  });

  describe("on PostgreSQL", () => {
    const schema = freshSchemaName();
    let postgres: PrismaJobStore;
    beforeAll(async () => {
      await requirePostgres();
      postgres = await createJobStore({ databaseUrl: TEST_DATABASE_URL, schema });
    });
    afterAll(async () => {
      await postgres?.close();
      await dropSchema(schema);
    });
    describeContract("contract", async () => new PrismaGatewayCallStore(postgres.sql));
    describeRefusedCall(async () => new PrismaGatewayCallStore(postgres.sql));

    it("keeps the calls across a reopened store (a restart), with the same traces and certificate", async () => {
      const job = "job_restart";
      const calls = [
        call(job, 0, { promptIds: [1, 2, 3], responseIds: [4, 5], parentCallId: null }),
        // Continues call 0 exactly: prompt = its prompt + response + new ids.
        call(job, 1, { promptIds: [1, 2, 3, 4, 5, 6], responseIds: [7], parentCallId: `gwc_${job}_0` }),
        // Rewrote history: the answer of call 1 is not repeated (a break at position 6).
        call(job, 2, {
          promptIds: [1, 2, 3, 4, 5, 6, 99, 8],
          responseIds: [9],
          parentCallId: `gwc_${job}_1`,
        }),
      ].map((c) => ({ ...c, logprobs: c.responseIds.map(() => -0.5) }));
      const first = new PrismaGatewayCallStore(postgres.sql);
      for (const c of calls) await first.append(c);
      const before = buildGatewayTraces(calls);
      expect(before.certificate.isCertified).toBe(false);

      const reopened = await createJobStore({ databaseUrl: TEST_DATABASE_URL, schema });
      try {
        const listed = await new PrismaGatewayCallStore(reopened.sql).listCalls(job);
        expect(listed).toEqual(calls);
        const after = buildGatewayTraces(listed);
        expect(after).toEqual(before);
        expect(after.certificate.breaks[0]).toMatchObject({ position: 6, expectedId: 7, actualId: 99 });
      } finally {
        await reopened.close();
      }
    });
  });
});
