import { describe, expect, it } from "vitest";
import { jobSandboxDefaults, withJobImage } from "./job-sandbox-defaults";

describe("a job's sandbox image", () => {
  const runJob = { metadata: { runId: "run_1", defaultImage: "/images/run.sif" } };

  it("is the payload's image, else its run's default, else none", () => {
    expect(jobSandboxDefaults({ image: "/images/own.sif" }, runJob)).toEqual({ image: "/images/own.sif" });
    expect(jobSandboxDefaults({}, runJob)).toEqual({ image: "/images/run.sif" });
    expect(jobSandboxDefaults({}, { metadata: null })).toEqual({});
    // A caller's label that is no absolute path is no image.
    expect(jobSandboxDefaults({}, { metadata: { defaultImage: "run.sif" } })).toEqual({});
  });

  it("stands under the task's own image", () => {
    const defaults = { image: "/images/run.sif" };
    expect(withJobImage({ image: "/images/swe/instance.sif" }, defaults)).toEqual({
      image: "/images/swe/instance.sif",
    });
    expect(withJobImage({ env: { A: "1" } }, defaults)).toEqual({
      env: { A: "1" },
      image: "/images/run.sif",
    });
    expect(withJobImage({ env: { A: "1" } }, {})).toEqual({ env: { A: "1" } });
  });
});
