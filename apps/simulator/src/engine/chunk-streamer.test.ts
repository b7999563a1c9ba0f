import { describe, expect, it, vi } from "vitest";
import { type DueChunk, streamChunks } from "./chunk-streamer";

const chunksDue = (offsetsMs: readonly number[]): DueChunk[] => {
  const now = performance.now();
  return offsetsMs.map((offset, i) => ({ start: i, end: i + 1, dueAtMs: now + offset }));
};

describe("streamChunks", () => {
  it("sends every chunk once, in order, none before it is due", async () => {
    const chunks = chunksDue([5, 10, 15, 20]);
    const sent: { start: number; atMs: number }[] = [];
    await streamChunks(
      chunks,
      (chunk) => sent.push({ start: chunk.start, atMs: performance.now() }),
      undefined,
    );
    expect(sent.map((entry) => entry.start)).toEqual([0, 1, 2, 3]);
    sent.forEach((entry, i) => {
      expect(entry.atMs).toBeGreaterThanOrEqual((chunks[i] as DueChunk).dueAtMs);
    });
  });

  it("sends none early when the stream starts after a busy turn of the event loop", async () => {
    const spinUntil = performance.now() + 30;
    while (performance.now() < spinUntil) {}
    const chunks = chunksDue([10, 20]);
    const sent: number[] = [];
    await streamChunks(chunks, () => sent.push(performance.now()), undefined);
    expect(sent).toHaveLength(2);
    for (const [i, atMs] of sent.entries()) {
      expect(atMs).toBeGreaterThanOrEqual((chunks[i] as DueChunk).dueAtMs);
    }
  });

  it("sends chunks that are already due without a timer each (a late stream catches up at once)", async () => {
    const timers = vi.spyOn(globalThis, "setTimeout");
    try {
      const sent: number[] = [];
      await streamChunks(chunksDue([-50, -40, -30, -20, -10]), (chunk) => sent.push(chunk.start), undefined);
      expect(sent).toEqual([0, 1, 2, 3, 4]);
      expect(timers).not.toHaveBeenCalled();
    } finally {
      timers.mockRestore();
    }
  });

  it("stops at an abort: rejects with the signal's reason and sends nothing more", async () => {
    const abort = new AbortController();
    const sent: number[] = [];
    const streaming = streamChunks(
      chunksDue([0, 5, 10_000, 20_000]),
      (chunk) => {
        sent.push(chunk.start);
        if (chunk.start === 1) setTimeout(() => abort.abort(new Error("client left")), 5);
      },
      abort.signal,
    );
    await expect(streaming).rejects.toThrow("client left");
    expect(sent).toEqual([0, 1]);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(sent).toEqual([0, 1]);
  });

  it("notices an abort that comes while a due chunk waits for its turn of I/O", async () => {
    const abort = new AbortController();
    const sent: number[] = [];
    const streaming = streamChunks(chunksDue([-1, -1]), (chunk) => sent.push(chunk.start), abort.signal);
    abort.abort(new Error("gone"));
    await expect(streaming).rejects.toThrow("gone");
    expect(sent).toEqual([]);
  });

  it("rejects with what sending throws, and sends nothing after it", async () => {
    const sent: number[] = [];
    const streaming = streamChunks(
      chunksDue([0, 0, 0]),
      (chunk) => {
        sent.push(chunk.start);
        if (chunk.start === 1) throw new Error("write failed");
      },
      undefined,
    );
    await expect(streaming).rejects.toThrow("write failed");
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sent).toEqual([0, 1]);
  });

  it("resolves at once for no chunks and rejects at once for a signal already aborted", async () => {
    await expect(streamChunks([], () => {}, undefined)).resolves.toBeUndefined();
    const abort = new AbortController();
    abort.abort(new Error("before"));
    const sent: number[] = [];
    await expect(
      streamChunks(chunksDue([0]), (chunk) => sent.push(chunk.start), abort.signal),
    ).rejects.toThrow("before");
    expect(sent).toEqual([]);
  });
});
