import { describe, expect, it } from "vitest";
import { HeldImageList, type HeldImageSource } from "./held-image-list";

/** A cache whose directory reads are counted and whose changes the test reports. */
function fakeCache(initial: string[][]) {
  const state = { entries: initial, acquiring: [] as string[], reads: 0, listener: () => {} };
  const cache: HeldImageSource = {
    listUnpacked: async () => {
      state.reads += 1;
      return state.entries.map((references, index) => ({ key: `k${index}`, references, sizeBytes: 1 }));
    },
    acquiring: () => state.acquiring,
    onChange: (listener) => {
      state.listener = listener;
      return () => {
        state.listener = () => {};
      };
    },
  };
  return { cache, state };
}

describe("HeldImageList", () => {
  it("lists every reference of the unpacked entries once, from one read", async () => {
    const { cache, state } = fakeCache([["/i/a.sif", "/j/a.sif"], ["/i/b.tar"]]);
    let nowMs = 0;
    const held = new HeldImageList(cache, { now: () => nowMs });
    await held.refresh();
    for (let reserve = 0; reserve < 100; reserve += 1) {
      expect(held.list()).toEqual(["/i/a.sif", "/j/a.sif", "/i/b.tar"]);
    }
    expect(state.reads).toBe(1);
    nowMs = 999;
    held.list();
    expect(state.reads).toBe(1);
  });

  it("reads again when the cache reports a change, and when the snapshot is older than maxAgeMs", async () => {
    const { cache, state } = fakeCache([["/i/a.sif"]]);
    let nowMs = 0;
    const held = new HeldImageList(cache, { now: () => nowMs, maxAgeMs: 1_000 });
    await held.refresh();
    state.entries = [["/i/a.sif"], ["/i/b.tar"]];
    state.listener();
    await held.refresh();
    expect(held.list()).toEqual(["/i/a.sif", "/i/b.tar"]);
    expect(state.reads).toBe(2);

    // Another process evicted one: seen once the snapshot is a second old.
    state.entries = [["/i/b.tar"]];
    nowMs = 1_000;
    held.list();
    await held.refresh();
    expect(held.list()).toEqual(["/i/b.tar"]);
  });

  it("includes the images being acquired right now", async () => {
    const { cache, state } = fakeCache([["/i/a.sif"]]);
    const held = new HeldImageList(cache);
    await held.refresh();
    state.acquiring = ["/i/c.sif", "/i/a.sif"];
    expect(held.list()).toEqual(["/i/a.sif", "/i/c.sif"]);
  });

  it("keeps the last snapshot when a read fails, and says so", async () => {
    const { cache, state } = fakeCache([["/i/a.sif"]]);
    const errors: unknown[] = [];
    let nowMs = 0;
    const held = new HeldImageList(cache, { now: () => nowMs, onError: (error) => errors.push(error) });
    await held.refresh();
    cache.listUnpacked = async () => {
      state.reads += 1;
      throw new Error("EIO");
    };
    nowMs = 5_000;
    held.list();
    await held.refresh();
    expect(held.list()).toEqual(["/i/a.sif"]);
    expect(errors).toEqual([new Error("EIO")]);
  });

  it("follows no change after close", async () => {
    const { cache, state } = fakeCache([["/i/a.sif"]]);
    const held = new HeldImageList(cache);
    await held.refresh();
    held.close();
    state.listener();
    expect(state.reads).toBe(1);
  });
});
