// SWE grading while the disk holding the sandboxes (a real tmpfs) is full: whichever step meets
// the full disk — materializing the repository, applying the patches, planting canaries, running
// pytest — the grade fails as infrastructure, never an unresolved (reward 0) or tampered report.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BubblewrapRuntime, findExecutable } from "@raas/sandbox";
import { TmpfsDisk } from "@raas/sandbox/testing";
import { failureOf } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateSwePatch } from "../../src/swe/swe-evaluator";
import { createBundleDirRepoSource } from "../../src/swe/swe-repo-source";
import { parseSweRepoSpecs } from "../../src/swe/swe-repo-spec.schema";
import { StepDiskFiller } from "../support/step-disk-filler";
import { fixtureInstance, SWE_BUNDLE_DIR, SWE_DATA_DIR } from "./support/swe-test-fixture";

const SEARCH_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
const INSTANCE = "raas-fixtures__tinystats-1";
const repoSpecs = parseSweRepoSpecs(JSON.parse(readFileSync(join(SWE_DATA_DIR, "specs.json"), "utf8")));

describe("SWE grading on a full host disk (real bubblewrap, real tmpfs)", () => {
  let disk: TmpfsDisk;
  let runtime: BubblewrapRuntime;
  const repoSource = createBundleDirRepoSource({ dir: SWE_BUNDLE_DIR });
  const filler = new StepDiskFiller(() => disk.fill());

  beforeAll(() => {
    const bwrapPath = findExecutable("bwrap", SEARCH_PATH);
    if (!bwrapPath) throw new Error("the SWE tests need bubblewrap: apt-get install -y bubblewrap");
    disk = TmpfsDisk.mount(64);
    runtime = new BubblewrapRuntime({ bwrapPath, baseDir: disk.baseDir, warn: () => {} });
  });
  afterAll(async () => {
    await runtime?.closeAll();
    await repoSource.close();
    disk?.unmount();
  });

  const grade = async () => {
    const instance = fixtureInstance(INSTANCE);
    try {
      return await evaluateSwePatch({
        instance,
        modelPatch: instance.patch,
        repoSource,
        openSandbox: async (spec) => filler.wrap(await runtime.create(spec)),
        options: { testTimeoutMs: 60_000, repoSpecs },
      });
    } finally {
      disk.free();
    }
  };

  it("fails the gold patch's grade as infrastructure at every step, and resolves it with room on the disk", async () => {
    filler.arm(null);
    const clean = await grade();
    expect(clean, clean.logTail).toMatchObject({ resolved: true });
    expect(clean.canaries?.lies ?? []).toEqual([]);
    const steps = filler.steps;
    expect(steps).toBeGreaterThanOrEqual(2);
    // Step 0: full before the evaluation sandbox (with the patches) is opened.
    for (let step = 0; step <= steps; step += 1) {
      if (step === 0) disk.fill();
      filler.arm(step === 0 ? null : step);
      const error = await grade().then(
        (report) => new Error(`step ${step}: graded ${JSON.stringify({ ...report, logTail: undefined })}`),
        (caught: unknown) => caught,
      );
      expect(failureOf(error)?.kind ?? String(error), `step ${step}: ${String(error)}`).toBe("sandbox");
    }
  }, 300_000);
});
