import { describe, expect, it } from "vitest";
import { ZWorkerLabelsVariable } from "./worker-labels";

describe("ZWorkerLabelsVariable", () => {
  it("splits a comma list, dropping blanks and repeats; unset is none", () => {
    expect(ZWorkerLabelsVariable.parse(undefined)).toEqual([]);
    expect(ZWorkerLabelsVariable.parse(" apptainer, gpu-a100 ,,apptainer,node-3.cluster")).toEqual([
      "apptainer",
      "gpu-a100",
      "node-3.cluster",
    ]);
  });

  it("names each label it refuses", () => {
    const result = ZWorkerLabelsVariable.safeParse("ok,has space,-dash");
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      '"has space" is not a label: use 1-64 letters, digits or _ . : - starting with a letter or digit',
      '"-dash" is not a label: use 1-64 letters, digits or _ . : - starting with a letter or digit',
    ]);
  });
});
