import { describe, expect, it } from "vitest";
import { batchHarnessPerTest, closedStep, groupTask } from "./batch-harness";

const start = batchHarnessPerTest();
const pilot = { policy: "zero-variance" as const, overProvision: 1, pilot: 2 };

describe("BatchSystem: a pilot runs first, long shots wait", () => {
  it("runs the rest of a group only once its pilot differs, first; an agreeing pilot is kept and carried", async () => {
    const h = await start();
    const { run } = await h.batches.createRun({ name: "pilot" });
    const { step } = await h.batches.createStep({
      runId: run.id,
      tasks: {
        type: "inline",
        tasks: [
          groupTask("flat", [1, 1, 1, 1]),
          groupTask("mixed", [1, 0, 1, 0]),
          groupTask("whole", [0, 1, 0, 1]),
          // More fresh tasks than the step needs: the source never runs dry, so nothing releases the long shot.
          ...["spare-1", "spare-2", "spare-3", "spare-4"].map((id) => groupTask(id, [1, 1, 1, 1])),
        ],
      },
      groupSize: 4,
      groups: 2,
      dynamicSampling: pilot,
    });
    const closed = await closedStep(h, step.id);
    expect(closed.status).toBe("completed");
    const groups = await h.batches.listGroups(step.id);
    const flat = groups.find((g) => g.taskId === "flat");
    const mixed = groups.find((g) => g.taskId === "mixed");
    // The flat task ran only its pilot: two samples kept, two slots never submitted.
    expect(flat?.state).toBe("carried");
    expect(flat?.members.map((m) => [m.status, m.jobId === ""])).toEqual([
      ["finished", false],
      ["finished", false],
      ["cancelled", true],
      ["cancelled", true],
    ]);
    expect(mixed?.state).toBe("delivered");
    expect(mixed?.members.map((m) => m.reward)).toEqual([1, 0, 1, 0]);
    // Pilots went on until the close; a later informative group is handed out as well.
    const whole = groups.find((g) => g.taskId === "whole");
    expect(whole?.state).toBe("delivered");
    expect(closed.stats.trajectoriesCarriedOver).toBeGreaterThanOrEqual(2);
    // The informative group's missing members ran one priority above fresh work.
    const priorities = await Promise.all(
      (mixed?.members ?? []).map(async (m) => (await h.engine.getJob(m.jobId)).priority),
    );
    expect(priorities).toEqual([0, 0, 1, 1]);

    // The next step carries the long shot in and keeps it waiting: its missing slots never run.
    const next = await h.batches.createStep({
      runId: run.id,
      tasks: {
        type: "inline",
        tasks: [
          groupTask("other", [0, 1, 0, 1]),
          ...["more-1", "more-2", "more-3", "more-4", "more-5", "more-6"].map((id) =>
            groupTask(id, [0, 0, 0, 0]),
          ),
        ],
      },
      groupSize: 4,
      groups: 1,
      dynamicSampling: pilot,
    });
    const second = await closedStep(h, next.step.id);
    expect(second.status).toBe("completed");
    const carried = (await h.batches.listGroups(next.step.id)).find((g) => g.taskId === "flat");
    expect(carried?.state).toBe("carried");
    expect(carried?.members.slice(0, 2).map((m) => m.jobId)).toEqual(
      flat?.members.slice(0, 2).map((m) => m.jobId),
    );
    expect(carried?.members.slice(2).map((m) => m.jobId)).toEqual(["", ""]);
    // The first step's other long shots (spares whose pilot agreed): the step takes one (the flat
    // one, oldest), one more waits, older ones are let go by the second step, with their cost.
    const longShots = groups.filter(
      (g) => g.state === "carried" && g.members.filter((m) => m.status === "finished").length === 2,
    );
    expect(longShots[0]?.taskId).toBe("flat");
    const letGo = (await h.batches.listGroups(step.id)).filter((g) => g.expiredInStepId !== null);
    expect(letGo.map((g) => [g.taskId, g.expiredInStepId])).toEqual(
      longShots.slice(1, -1).map((g) => [g.taskId, next.step.id]),
    );
    expect(second.stats.waste.expiredLongShots.jobs).toBe(2 * letGo.length);
  });

  it("runs long shots on once the task source has nothing fresh, and decides them exactly", async () => {
    const h = await start();
    const { run } = await h.batches.createRun({ name: "pilot-dry" });
    const { step } = await h.batches.createStep({
      runId: run.id,
      tasks: {
        type: "inline",
        tasks: [
          groupTask("flat", [0, 0, 0, 0]),
          groupTask("late", [1, 1, 1, 0]),
          groupTask("mixed", [1, 0, 1, 0]),
        ],
      },
      groupSize: 4,
      groups: 2,
      dynamicSampling: pilot,
    });
    const closed = await closedStep(h, step.id);
    expect(closed.status).toBe("completed");
    const groups = await h.batches.listGroups(step.id);
    const late = groups.find((g) => g.taskId === "late");
    const flat = groups.find((g) => g.taskId === "flat");
    // The late group's pilot agreed; its other members ran when nothing fresh was left.
    expect(late?.state).toBe("delivered");
    expect(late?.members.map((m) => m.reward)).toEqual([1, 1, 1, 0]);
    // The flat one was released too: complete with one reward, dropped as zero variance (or,
    // when the step closed first, carried with its finished samples).
    expect(["dropped", "carried"]).toContain(flat?.state);
    if (flat?.state === "dropped") expect(flat.decision).toBe("uninformative");
    const result = await h.batches.nextGroups(step.id, { afterSeq: 0, limit: 5, timeoutMs: 100 });
    expect(result.groups.map((g) => g.taskId).sort()).toEqual(["late", "mixed"]);
  });
});
