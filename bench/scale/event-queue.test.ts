import { describe, expect, it } from "vitest";
import { EventQueue } from "./event-queue";
import { createRandom } from "./random";

describe("EventQueue", () => {
  it("pops events in time order, and events at the same time in the order they were pushed", () => {
    const queue = new EventQueue<string>();
    queue.push(30, "c");
    queue.push(10, "a1");
    queue.push(20, "b");
    queue.push(10, "a2");
    queue.push(0, "start");
    queue.push(10, "a3");
    const popped: string[] = [];
    for (let next = queue.pop(); next !== undefined; next = queue.pop()) popped.push(next.item);
    expect(popped).toEqual(["start", "a1", "a2", "a3", "b", "c"]);
    expect(queue.size).toBe(0);
    expect(queue.pop()).toBeUndefined();
  });

  it("keeps order over many interleaved pushes and pops", () => {
    const random = createRandom(7);
    const queue = new EventQueue<number>();
    let lastTime = -1;
    let pushed = 0;
    for (let round = 0; round < 2_000; round++) {
      // Events are only ever scheduled at or after the current time, as in the simulation.
      for (let i = 0; i < 3; i++) queue.push(Math.max(lastTime, 0) + Math.floor(random() * 50), pushed++);
      const next = queue.pop();
      expect(next?.timeMs).toBeGreaterThanOrEqual(lastTime);
      lastTime = next?.timeMs ?? lastTime;
    }
    expect(queue.size).toBe(4_000);
  });

  it("refuses a time that is not finite", () => {
    expect(() => new EventQueue<number>().push(Number.NaN, 1)).toThrow(/finite/);
  });
});
