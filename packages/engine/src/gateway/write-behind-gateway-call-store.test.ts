import { failureOf, type TGatewayCallRecord } from "@raas/shared";
import { describe, expect, it } from "vitest";
import type { GatewayCallBase, GatewayCallStore } from "./gateway-call-store.port";
import { MemoryGatewayCallStore } from "./memory-gateway-call-store";
import { WriteBehindGatewayCallStore } from "./write-behind-gateway-call-store";

function call(jobId: string, seq: number): TGatewayCallRecord {
  return {
    id: `gwc_${jobId}_${seq}`,
    seq,
    jobId,
    parentCallId: null,
    promptIds: [1, 2, 3 + seq],
    responseIds: [9],
    logprobs: [-0.5],
    finishReason: "stop",
    backendId: "sim-0",
    weightVersion: null,
    cachedPromptTokens: null,
    latencyMs: 1,
    overheadMs: 0.5,
    messages: [{ role: "user", content: `call ${seq}` }],
    tools: [],
    answer: { role: "assistant", content: "ok" },
    createdAtMs: 1_764_000_000_000 + seq,
  };
}

/**
 * A memory store whose writes wait until released (a slow database), or fail while `failures`
 * lasts (an outage); it counts the writes it was asked for.
 */
class GatedStore implements GatewayCallStore {
  readonly memory = new MemoryGatewayCallStore();
  attempts = 0;
  failures = 0;
  #gate: Promise<void> = Promise.resolve();
  #open: () => void = () => {};

  hold(): void {
    this.#gate = new Promise((resolve) => {
      this.#open = resolve;
    });
  }

  release(): void {
    this.#open();
  }

  async append(record: TGatewayCallRecord, _base?: GatewayCallBase): Promise<void> {
    this.attempts += 1;
    await this.#gate;
    if (this.failures > 0) {
      this.failures -= 1;
      throw new Error("connection terminated");
    }
    await this.memory.append(record);
  }

  listCalls(jobId: string): Promise<TGatewayCallRecord[]> {
    return this.memory.listCalls(jobId);
  }

  deleteCalls(jobId: string): Promise<void> {
    return this.memory.deleteCalls(jobId);
  }
}

describe("WriteBehindGatewayCallStore", () => {
  it("accepts a call before it is stored, and a read of its job waits for the write", async () => {
    const inner = new GatedStore();
    const store = new WriteBehindGatewayCallStore(inner);
    inner.hold();
    await store.append(call("job-a", 0));
    await store.append(call("job-a", 1));
    expect(await inner.memory.listCalls("job-a")).toEqual([]);
    const listed = store.listCalls("job-a");
    inner.release();
    expect((await listed).map((record) => record.seq)).toEqual([0, 1]);
  });

  it("stores a call whose write failed once the store is back, and reads see it", async () => {
    const inner = new GatedStore();
    const retried: number[] = [];
    const store = new WriteBehindGatewayCallStore(inner, {
      firstRetryDelayMs: 1,
      onRetry: (_error, record) => retried.push(record.seq),
    });
    inner.failures = 2;
    await store.append(call("job-b", 0));
    expect((await store.listCalls("job-b")).map((record) => record.seq)).toEqual([0]);
    expect(retried).toEqual([0, 0]);
    expect(inner.attempts).toBe(3);
  });

  it("never drops a call silently: a write that keeps failing fails the job's reads and next calls as infrastructure", async () => {
    const inner = new GatedStore();
    const store = new WriteBehindGatewayCallStore(inner, { retryForMs: 0 });
    inner.failures = 1;
    await store.append(call("job-c", 0));
    await store.append(call("job-d", 0));
    const error = await store.listCalls("job-c").catch((thrown: unknown) => thrown);
    expect(failureOf(error)).toMatchObject({
      kind: "request",
      code: "UNAVAILABLE",
      cause: "infrastructure",
      message: expect.stringContaining("gateway call #0 of job job-c was answered but could not be stored"),
    });
    await expect(store.append(call("job-c", 1))).rejects.toThrow("could not be stored");
    // Other jobs go on; a fresh attempt of the job starts it over.
    expect((await store.listCalls("job-d")).map((record) => record.seq)).toEqual([0]);
    await store.deleteCalls("job-c");
    await store.append(call("job-c", 0));
    expect((await store.listCalls("job-c")).map((record) => record.seq)).toEqual([0]);
  });

  it("removes a job's calls only after its accepted writes, so none comes back after a fresh attempt", async () => {
    const inner = new GatedStore();
    const store = new WriteBehindGatewayCallStore(inner);
    inner.hold();
    await store.append(call("job-e", 0));
    const deleted = store.deleteCalls("job-e");
    inner.release();
    await deleted;
    expect(await store.listCalls("job-e")).toEqual([]);
    expect(inner.attempts).toBe(1);
  });

  it("flush waits for every job's accepted writes", async () => {
    const inner = new GatedStore();
    const store = new WriteBehindGatewayCallStore(inner);
    inner.hold();
    await store.append(call("job-f", 0));
    await store.append(call("job-g", 0));
    const flushed = store.flush();
    inner.release();
    await flushed;
    expect(
      (await inner.memory.listCalls("job-f")).length + (await inner.memory.listCalls("job-g")).length,
    ).toBe(2);
  });

  it("gathers calls for gatherMs and hands them over in one turn; a read hands them over at once", async () => {
    const inner = new GatedStore();
    const store = new WriteBehindGatewayCallStore(inner, { gatherMs: 60_000 });
    for (let seq = 0; seq < 5; seq += 1) await store.append(call("job-h", seq));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(inner.attempts).toBe(0);
    const listed = store.listCalls("job-h");
    // All five handed to the store before this turn ends (a grouping store writes them as one).
    expect(inner.attempts).toBe(5);
    expect((await listed).map((record) => record.seq)).toEqual([0, 1, 2, 3, 4]);
  });

  it("hands the gathered calls over when the window closes, or when maxGathered are waiting", async () => {
    const inner = new GatedStore();
    const store = new WriteBehindGatewayCallStore(inner, { gatherMs: 30, maxGathered: 3 });
    await store.append(call("job-i", 0));
    await store.append(call("job-i", 1));
    expect(inner.attempts).toBe(0);
    await store.append(call("job-i", 2));
    expect(inner.attempts).toBe(3);
    await store.append(call("job-i", 3));
    expect(inner.attempts).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(inner.attempts).toBe(4);
    expect((await inner.memory.listCalls("job-i")).map((record) => record.seq)).toEqual([0, 1, 2, 3]);
  });
});
