import { describe, expect, it } from "vitest";
import { GroupWriter } from "./group-writer";

/** A store whose writes finish when the test says so; it records every group it was given. */
function controlledStore(fails: (item: number) => boolean = () => false) {
  const groups: number[][] = [];
  const finishers: (() => void)[] = [];
  const writeGroup = (items: readonly number[]) => {
    groups.push([...items]);
    return new Promise<void>((resolve, reject) => {
      finishers.push(() => (items.some(fails) ? reject(new Error(`bad item in ${items}`)) : resolve()));
    });
  };
  /** Lets the writer start what it has, finishes the oldest unfinished write, then lets it move on. */
  const finishNext = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    finishers.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { groups, writeGroup, finishNext, unfinished: () => finishers.length };
}

describe("GroupWriter", () => {
  it("writes at once when idle, and groups the writes that come meanwhile, in order", async () => {
    const store = controlledStore();
    const writer = new GroupWriter(store.writeGroup, 10);
    const first = writer.write(1);
    await Promise.resolve();
    expect(store.groups).toEqual([[1]]);
    const rest = [2, 3, 4].map((item) => writer.write(item));
    expect(store.groups).toEqual([[1]]);
    await store.finishNext();
    await first;
    expect(store.groups).toEqual([[1], [2, 3, 4]]);
    await store.finishNext();
    await Promise.all(rest);
    expect(store.unfinished()).toBe(0);
  });

  it("groups the writes of one turn when idle, and puts no more than maxGroup writes in a group", async () => {
    const store = controlledStore();
    const writer = new GroupWriter(store.writeGroup, 2);
    const writes = [1, 2, 3, 4, 5].map((item) => writer.write(item));
    for (let i = 0; i < 3; i += 1) await store.finishNext();
    await Promise.all(writes);
    expect(store.groups).toEqual([[1, 2], [3, 4], [5]]);
  });

  it("fails only the bad write of a failed group: the group is written again item by item", async () => {
    const store = controlledStore((item) => item === 3);
    const writer = new GroupWriter(store.writeGroup, 10);
    const outcomes = [1, 2, 3, 4].map((item) =>
      writer.write(item).then(
        () => "stored",
        (error: Error) => error.message,
      ),
    );
    do await store.finishNext();
    while (store.unfinished() > 0);
    expect(await Promise.all(outcomes)).toEqual(["stored", "stored", "bad item in 3", "stored"]);
    expect(store.groups).toEqual([[1, 2, 3, 4], [1], [2], [3], [4]]);
  });

  it("says when every write made so far is done, failed ones included", async () => {
    const store = controlledStore((item) => item === 2);
    const writer = new GroupWriter(store.writeGroup, 10);
    const failing = writer.write(1).then(() => writer.write(2));
    const failed = expect(failing).rejects.toThrow("bad item in 2");
    await store.finishNext();
    let isDone = false;
    const done = writer.whenWritten().then(() => {
      isDone = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(isDone).toBe(false);
    await store.finishNext();
    await done;
    await failed;
    expect(isDone).toBe(true);
  });
});
