import { LocalRuntime } from "@raas/sandbox";
import type { TJob } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { createMathHandler } from "../math/math-handler";
import { createOraclePolicy, oracleChatFormat } from "../oracle/oracle-policy";

// What a job's queue item says its sandboxes will run on, before INIT (image-aware placement).
const deps = {
  sandboxRuntime: new LocalRuntime({ warn: () => {} }),
  inference: createOraclePolicy({ taskIdPattern: /Task id: (\S+)/ }).inference,
  chatFormat: oracleChatFormat,
};

const jobOf = (metadata: Record<string, unknown> | null) => ({ metadata }) as Pick<TJob, "metadata"> as TJob;

describe("imageOf of the agent handlers", () => {
  it("is the payload's image, else the run's default, else none", () => {
    const math = createMathHandler(deps);
    const payload = { taskId: "m", problem: "1+1", answer: "2" };
    const onRun = jobOf({ defaultImage: "/images/run.sif" });
    expect(math.imageOf?.(payload, onRun)).toBe("/images/run.sif");
    expect(math.imageOf?.({ ...payload, image: "/images/own.sif" }, onRun)).toBe("/images/own.sif");
    expect(math.imageOf?.(payload, jobOf(null))).toBeUndefined();
  });
});
