import { describe, expect, it } from "vitest";
import { ZWorkerPoolsVariable } from "./worker-pools";

const issues = (text: string) => {
  const parsed = ZWorkerPoolsVariable.safeParse(text);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
};

describe("ZWorkerPoolsVariable", () => {
  it("leaves the default to the app when unset", () => {
    expect(ZWorkerPoolsVariable.parse(undefined)).toBeUndefined();
  });

  it("reads any subset of stages; the stages not named run no pool", () => {
    expect(ZWorkerPoolsVariable.parse("init=16,run=64,eval=16")).toEqual({ init: 16, run: 64, eval: 16 });
    expect(ZWorkerPoolsVariable.parse(" RUN = 8 ,")).toEqual({ init: 0, run: 8, eval: 0 });
  });

  it("reads 0 and none as no pools at all", () => {
    expect(ZWorkerPoolsVariable.parse("none")).toEqual({ init: 0, run: 0, eval: 0 });
    expect(ZWorkerPoolsVariable.parse("0")).toEqual({ init: 0, run: 0, eval: 0 });
  });

  it("names each bad entry", () => {
    expect(issues("init=2,gpu=3")).toEqual([expect.stringContaining('"gpu=3": expected stage=concurrency')]);
    expect(issues("run=-1")[0]).toContain('"run=-1"');
    expect(issues("run=2,run=3")).toEqual(["run is named twice"]);
    expect(issues("eval=100001")).toEqual(["eval=100001: expected at most 100000"]);
    expect(issues(" , ")).toEqual(["names no pool; write none for no pools"]);
  });
});
