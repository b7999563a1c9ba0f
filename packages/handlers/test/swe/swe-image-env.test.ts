import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ImageCache } from "@raas/sandbox";
import { buildTestImages, type TestImages } from "@raas/sandbox/testing";
import { failureOf } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateSwePatch } from "../../src/swe/swe-evaluator";
import type { TSweInstance } from "../../src/swe/swe-instance.schema";
import type { SweEvalOptions } from "../../src/swe/swe-options";
import { type ClosableSweRepoSource, createBundleDirRepoSource } from "../../src/swe/swe-repo-source";
import { buildSweImageFixture, SWE_TEST_IMAGE_RECIPE } from "../../src/testing/swe-image-fixture";
import { createSweTestRuntime } from "./support/swe-test-fixture";

const CHECKOUT_TEST = "test_checkout_version (tests.test_chunks.ChunksTest)";

describe("SWE evaluation on per-repository images (bubblewrap, image cache)", () => {
  const scratch = mkdtempSync(join(tmpdir(), "raas-swe-images-"));
  // The sandboxes run as another uid: they must be able to reach the cache's unpacked images.
  chmodSync(scratch, 0o755);
  const fixture = createSweTestRuntime({ imageCache: new ImageCache({ dir: join(scratch, "cache") }) });
  let images: TestImages;
  let instance: TSweInstance;
  let repoSource: ClosableSweRepoSource;

  beforeAll(async () => {
    images = await buildTestImages(SWE_TEST_IMAGE_RECIPE);
    const data = join(scratch, "data");
    mkdirSync(data);
    instance = buildSweImageFixture(data);
    repoSource = createBundleDirRepoSource({ dir: join(data, "bundles") });
  }, 600_000);
  afterAll(async () => {
    await repoSource?.close();
    await fixture.dispose();
    rmSync(scratch, { recursive: true, force: true });
  });

  const evaluateGold = (options: SweEvalOptions) =>
    evaluateSwePatch({
      instance,
      modelPatch: instance.patch,
      repoSource,
      openSandbox: (spec) => fixture.runtime.create(spec),
      options: { testTimeoutMs: 120_000, ...options },
    });

  it("fails on the host's Python and resolves on the image's 3.13, named by a per-repository pattern, OCI and SIF alike", async () => {
    const host = await evaluateGold({});
    expect(host.pythonVersion).toMatch(/^3\.11\./);
    expect(host.resolved).toBe(false);
    expect(host.testStatuses).toMatchObject({
      "test_short_last_chunk (tests.test_chunks.ChunksTest)": "ERROR",
      [CHECKOUT_TEST]: "PASSED",
    });

    for (const [suffix, image] of [
      ["oci.tar", images.ociArchive],
      ["sif", images.sif],
    ] as const) {
      // The operator's layout: one image per repository and version, found through the pattern.
      const dir = join(scratch, `images-${suffix}`);
      mkdirSync(dir);
      symlinkSync(image, join(dir, `raas-fixtures__chunky__1.2.${suffix}`));
      const report = await evaluateGold({ imagePattern: `${dir}/{repo}__{version}.${suffix}` });
      expect({ suffix, resolved: report.resolved, log: report.resolved ? "" : report.logTail }).toEqual({
        suffix,
        resolved: true,
        log: "",
      });
      expect(report.pythonVersion).toMatch(/^3\.13\./);
      expect(Object.values(report.testStatuses).every((status) => status === "PASSED")).toBe(true);
    }
  }, 600_000);

  it("imports the repository's own package from the checkout, never the copy in the image's site-packages", async () => {
    // The image does hold an installed chunky (0.1.0, whose chunks() raises) where Python finds it…
    const sandbox = await fixture.runtime.create({ image: images.sif });
    try {
      const installed = await sandbox.exec(
        ["python3", "-c", "import chunky; print(chunky.__version__, chunky.__file__)"],
        {
          timeoutMs: 60_000,
        },
      );
      expect(installed.stdout.trim()).toBe("0.1.0 /usr/lib/python3/dist-packages/chunky/__init__.py");
    } finally {
      await sandbox.close();
    }
    // …yet the graded tests ran the checkout's 1.2.0: the version test and every listed test pass.
    const report = await evaluateGold({ image: images.ociArchive });
    expect(report.testStatuses[CHECKOUT_TEST]).toBe("PASSED");
    expect(report.resolved).toBe(true);
  }, 600_000);

  it("fails the sandbox stage naming an image that is missing or of no known format, never grading it", async () => {
    const notAnImage = join(scratch, "not-an-image.img");
    writeFileSync(notAnImage, "plain text, not an image\n");
    for (const [image, reason] of [
      [join(scratch, "missing.sif"), "does not exist"],
      [notAnImage, "neither a directory, an OCI or docker archive, nor a SIF file"],
    ] as const) {
      const error = await evaluateGold({ image }).then(
        (report) => new Error(`graded instead of failing: resolved=${report.resolved}`),
        (caught: unknown) => caught,
      );
      expect(failureOf(error)?.kind, String(error)).toBe("sandbox");
      expect(String((error as Error).message)).toContain(image);
      expect(String((error as Error).message)).toContain(reason);
    }
  }, 120_000);
});
