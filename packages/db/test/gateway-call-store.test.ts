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

    it("keeps the sampling parameters a call was generated with and the harness's overridden ones", async () => {
      const store = await open();
      const job = `job_${freshSchemaName()}`;
      const sampling = { temperature: 0.6, topP: 0.95, topK: null, seed: 17, maxTokens: 512 };
      const overriddenSampling = { temperature: 0, top_p: 0.1, logit_bias: { "9": 100 } };
      await store.append(call(job, 0, { sampling, overriddenSampling }));
      await store.append(call(job, 1, { sampling }));
      await store.append(call(job, 2));
      const stored = await store.listCalls(job);
      expect(stored).toEqual([
        call(job, 0, { sampling, overriddenSampling }),
        call(job, 1, { sampling }),
        call(job, 2),
      ]);
      expect(stored[1]).not.toHaveProperty("overriddenSampling");
      expect(stored[2]).not.toHaveProperty("sampling");
    });

    it("keeps a call's top-k logprobs when the job asked for them, and their absence", async () => {
      const store = await open();
      const job = `job_${freshSchemaName()}`;
      const topLogprobs = [
        [
          { tokenId: 9, logprob: -0.5 },
          { tokenId: 4, logprob: -1.5 },
        ],
        [
          { tokenId: 8, logprob: -0.25 },
          { tokenId: 3, logprob: -2 },
        ],
        [
          { tokenId: 12, logprob: -0.75 },
          { tokenId: 7, logprob: -1.125 },
        ],
      ];
      await store.append(call(job, 0, { topLogprobs }));
      await store.append(call(job, 1));
      const stored = await store.listCalls(job);
      expect(stored).toEqual([call(job, 0, { topLogprobs }), call(job, 1)]);
      expect(stored[1]).not.toHaveProperty("topLogprobs");
    });

    it("keeps how a call came (API shape, client, what was said in that shape), and its absence", async () => {
      const store = await open();
      const job = `job_${freshSchemaName()}`;
      const exchange = {
        api: "anthropic.messages" as const,
        userAgent: "claude-cli/2.1.197 (external, sdk-cli)",
        request: {
          model: "m",
          max_tokens: 64,
          messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
        },
        response: {
          id: "msg_gwc_1",
          type: "message",
          content: [{ type: "text", text: "hello" }],
          stop_reason: "end_turn",
        },
      };
      const chat = { api: "chat.completions" as const, userAgent: null };
      await store.append(call(job, 0, { exchange }));
      await store.append(call(job, 1, { exchange: chat }));
      await store.append(call(job, 2));
      const stored = await store.listCalls(job);
      expect(stored).toEqual([call(job, 0, { exchange }), call(job, 1, { exchange: chat }), call(job, 2)]);
      expect(stored[2]).not.toHaveProperty("exchange");
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

    it("gives back complete calls stored on their bases (what they repeat of an earlier call)", async () => {
      const store = await open();
      const job = `job_${freshSchemaName()}`;
      const system = { role: "system", content: "Be careful." };
      const task = { role: "user", content: "Fix the bug." };
      const answer = { role: "assistant", content: "Looking." };
      const calls = [
        call(job, 0, { promptIds: [1, 2, 3], responseIds: [4, 5], messages: [system, task] }),
        // Continues call 0: its prompt, its response, then new ids; its messages, the answer, a tool result.
        call(job, 1, {
          promptIds: [1, 2, 3, 4, 5, 6, 7],
          responseIds: [8],
          messages: [system, task, answer, { role: "tool", tool_call_id: "c1", content: "a.txt" }],
        }),
        // Repeats call 1's prompt up to inside its response; rewrote the task; other tools.
        call(job, 2, {
          promptIds: [1, 2, 3, 4, 9],
          responseIds: [10],
          messages: [system, { role: "user", content: "Fix it." }],
          tools: [],
        }),
        // Repeats call 0's prompt only in part, and nothing else.
        call(job, 3, { promptIds: [1, 2], responseIds: [11], messages: [task], tools: [] }),
      ].map((c) => ({ ...c, logprobs: c.responseIds.map(() => -0.5) }));
      const bases = [
        undefined,
        { seq: 0, promptTokens: 5, messages: 2, isSameTools: true },
        { seq: 1, promptTokens: 4, messages: 1, isSameTools: false },
        { seq: 0, promptTokens: 2, messages: 0, isSameTools: false },
      ];
      for (const [i, c] of calls.entries()) await store.append(c, bases[i]);
      expect(await store.listCalls(job)).toEqual(calls);
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
  it("stores only what a call adds to its base, and refuses to read a call whose base is gone or rewritten", async () => {
    const store = new PrismaGatewayCallStore(pglite.sql);
    const job = `job_${freshSchemaName()}`;
    const first = call(job, 0, { promptIds: [1, 2, 3], responseIds: [4], logprobs: [-0.5] });
    const second = call(job, 1, {
      promptIds: [1, 2, 3, 4, 5],
      messages: [...first.messages, { role: "tool", content: "ok" }],
    });
    await store.append(first);
    await store.append(second, { seq: 0, promptTokens: 4, messages: 1, isSameTools: true });
    const rows = await pglite.sql.query<{ ids: number; messages: unknown; tools: unknown; tokens: number }>(
      `SELECT length(prompt_ids) AS ids, messages, tools, prompt_tokens AS tokens
       FROM gateway_calls WHERE job_id = $1 ORDER BY seq`,
      [job],
    );
    expect(rows.map((row) => ({ ...row, ids: Number(row.ids) }))).toEqual([
      { ids: 12, messages: first.messages, tools: first.tools, tokens: 3 },
      { ids: 4, messages: [{ role: "tool", content: "ok" }], tools: [], tokens: 5 },
    ]);
    expect(await store.listCalls(job)).toEqual([first, second]);

    // The base written again with other prompt ids: the repeated ids no longer hash the same.
    await store.append({ ...first, promptIds: [1, 2, 7] });
    await expect(store.listCalls(job)).rejects.toThrow(/#1 is stored on call #0, which is missing or not/);
    await store.append(first);
    expect(await store.listCalls(job)).toEqual([first, second]);
    await pglite.sql.execute(`DELETE FROM gateway_calls WHERE job_id = $1 AND seq = 0`, [job]);
    await expect(store.listCalls(job)).rejects.toThrow(/#1 is stored on call #0, which is missing/);
  });
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
      // Calls 1 and 2 stored on their parents (call 2 repeats call 1's prompt ids only).
      const bases = [
        undefined,
        { seq: 0, promptTokens: 5, messages: 0, isSameTools: true },
        { seq: 1, promptTokens: 6, messages: 0, isSameTools: true },
      ];
      for (const [i, c] of calls.entries()) await first.append(c, bases[i]);
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
