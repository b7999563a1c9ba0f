import { describe, expect, it } from "vitest";
import { FairGrantQueue, type Grant, type GrantFlow } from "./fair-grant-queue";

const flow = (flowId: string, weight = 1, priority = 0): GrantFlow => ({ flowId, weight, priority });

/**
 * Keeps `slots` requests granted: each flow has `backlog` requests waiting at all times (a run's
 * jobs send their next turn as soon as one ends); the oldest grant ends first, costing `costOf`.
 * Returns the grants in order.
 */
function saturate(
  queue: FairGrantQueue<string>,
  flows: GrantFlow[],
  options: { grants: number; slots: number; backlog: number; costOf: (flowId: string, n: number) => number },
): Grant<string>[] {
  let seq = 0;
  for (const f of flows) for (let i = 0; i < options.backlog; i += 1) queue.arrive(f, `${f.flowId}-${seq++}`);
  const running: Grant<string>[] = [];
  const order: Grant<string>[] = [];
  while (order.length < options.grants) {
    while (running.length < options.slots) {
      const grant = queue.grantNext();
      if (!grant) break;
      running.push(grant);
      order.push(grant);
    }
    const done = running.shift();
    if (!done) break;
    queue.finish(done, options.costOf(done.flowId, order.length));
    const of = flows.find((f) => f.flowId === done.flowId) as GrantFlow;
    queue.arrive(of, `${of.flowId}-${seq++}`);
  }
  return order;
}

const count = (grants: Grant<string>[], flowId: string) => grants.filter((g) => g.flowId === flowId).length;

describe("FairGrantQueue", () => {
  it("grants two backlogged flows of weights 3:1 in a 3:1 ratio of requests of equal cost", () => {
    const queue = new FairGrantQueue<string>();
    const grants = saturate(queue, [flow("a", 3), flow("b", 1)], {
      grants: 400,
      slots: 4,
      backlog: 8,
      costOf: () => 500,
    });
    expect(Math.abs(count(grants, "a") - 300)).toBeLessThanOrEqual(4);
    expect(Math.abs(count(grants, "b") - 100)).toBeLessThanOrEqual(4);
  });

  it("shares cost, not request counts: a flow of long requests gets fewer of them", () => {
    const queue = new FairGrantQueue<string>({ initialCost: 100 });
    const costs: Record<string, number> = { short: 100, long: 400 };
    saturate(queue, [flow("short"), flow("long")], {
      grants: 500,
      slots: 2,
      backlog: 4,
      costOf: (id) => costs[id] as number,
    });
    const charged = Object.fromEntries(queue.snapshot().map((f) => [f.flowId, f.charged]));
    expect((charged.short as number) / (charged.long as number)).toBeGreaterThan(0.9);
    expect((charged.short as number) / (charged.long as number)).toBeLessThan(1.1);
  });

  it("charges what a request really cost, whatever was estimated", () => {
    const queue = new FairGrantQueue<string>({ initialCost: 1 });
    // Flow b's requests cost a varying amount (10 to 90), a's always 50: equal weights, equal cost.
    saturate(queue, [flow("a"), flow("b")], {
      grants: 600,
      slots: 3,
      backlog: 5,
      costOf: (id, n) => (id === "a" ? 50 : 10 + ((n * 37) % 81)),
    });
    const [a, b] = ["a", "b"].map((id) => queue.snapshot().find((f) => f.flowId === id)?.charged as number);
    expect((a as number) / (b as number)).toBeGreaterThan(0.9);
    expect((a as number) / (b as number)).toBeLessThan(1.1);
  });

  it("grants a higher-priority flow's request next, however far ahead of it the others are", () => {
    const queue = new FairGrantQueue<string>();
    queue.arrive(flow("a", 3), "a-1");
    queue.arrive(flow("b", 1), "b-1");
    const first = queue.grantNext() as Grant<string>;
    queue.finish(first, 10_000);
    queue.arrive(flow("urgent", 1, 5), "urgent-1");
    expect(queue.grantNext()?.item).toBe("urgent-1");
  });

  it("grants requests of one flow in arrival order", () => {
    const queue = new FairGrantQueue<string>();
    for (const item of ["x-1", "x-2", "x-3"]) queue.arrive(flow("x"), item);
    expect([queue.grantNext()?.item, queue.grantNext()?.item, queue.grantNext()?.item]).toEqual([
      "x-1",
      "x-2",
      "x-3",
    ]);
    expect(queue.grantNext()).toBeNull();
  });

  it("never grants a withdrawn request", () => {
    const queue = new FairGrantQueue<string>();
    queue.arrive(flow("x"), "x-1");
    queue.arrive(flow("x"), "x-2");
    expect(queue.withdraw("x", "x-1")).toBe(true);
    expect(queue.withdraw("x", "x-1")).toBe(false);
    expect(queue.waitingCount).toBe(1);
    expect(queue.grantNext()?.item).toBe("x-2");
    expect(queue.grantNext()).toBeNull();
  });

  it("gives a run that was idle no credit: it alternates with the busy one instead of catching up", () => {
    const queue = new FairGrantQueue<string>();
    for (let i = 0; i < 50; i += 1) {
      queue.arrive(flow("busy"), `busy-${i}`);
      queue.finish(queue.grantNext() as Grant<string>, 100);
    }
    for (let i = 0; i < 10; i += 1) {
      queue.arrive(flow("busy"), `busy-late-${i}`);
      queue.arrive(flow("newcomer"), `newcomer-${i}`);
    }
    const firstTen: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const grant = queue.grantNext() as Grant<string>;
      firstTen.push(grant.flowId);
      queue.finish(grant, 100);
    }
    expect(firstTen.filter((id) => id === "newcomer").length).toBe(5);
  });

  it("treats a non-positive or non-finite weight as 1", () => {
    const queue = new FairGrantQueue<string>();
    const grants = saturate(queue, [flow("zero", 0), flow("one", 1)], {
      grants: 100,
      slots: 1,
      backlog: 2,
      costOf: () => 10,
    });
    expect(count(grants, "zero")).toBe(50);
  });
});
