// The warm pool keeps started sandboxes per image on real bubblewrap: a sandbox started on one
// image is handed only to a spec of that image, never to another image's or the host's.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Sandbox } from "@raas/engine";
import type { TSandboxEvent } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImageCache } from "../src/index";
import { buildTestImageVariants, VARIANT_MARKER_PATH } from "../src/testing";
import { createTestRuntime } from "./support/sandbox-fixture";
import { buildTestImages } from "./support/test-images";

const TIMEOUT_MS = 300_000;

/** Which variant image a sandbox runs on (its marker file), or "host" without one. */
async function variantOf(sandbox: Sandbox): Promise<string> {
  const result = await sandbox.exec(["bash", "-c", `cat ${VARIANT_MARKER_PATH} 2>/dev/null || echo host`], {
    timeoutMs: 30_000,
  });
  return result.stdout.trim();
}

async function waitFor(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe("warm pool per image (bubblewrap)", () => {
  const cacheDir = mkdtempSync(join(tmpdir(), "raas-warm-pool-images-"));
  const fixture = createTestRuntime({
    defaultLimits: { memoryBytes: 2 * 1024 ** 3 },
    warmPoolSize: 1,
    imageCache: new ImageCache({ dir: cacheDir }),
  });
  const { runtime } = fixture;
  const events: TSandboxEvent[] = [];
  runtime.onEvent((event) => events.push(event));
  let imageA = "";
  let imageB = "";

  beforeAll(async () => {
    [imageA, imageB] = (await buildTestImageVariants(await buildTestImages(), 2)) as [string, string];
  }, TIMEOUT_MS);
  afterAll(async () => {
    await fixture.dispose();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  /** Creates, reads which image it runs on and whether it came from a pool, closes. */
  async function use(jobId: string, image?: string): Promise<{ variant: string; fromPool: boolean }> {
    const sandbox = await runtime.create(image ? { jobId, image } : { jobId });
    try {
      const fromPool = events.some(
        (event) => event.type === "assigned" && event.jobId === jobId && event.detail?.fromPool === true,
      );
      return { variant: await variantOf(sandbox), fromPool };
    } finally {
      await sandbox.close();
    }
  }

  it(
    "hands a sandbox started on one image only to specs of that image",
    async () => {
      // First use of A starts cold and makes A's pool, which fills in the background.
      expect(await use("a-0", imageA)).toEqual({ variant: "0", fromPool: false });
      await waitFor(() => runtime.warmPoolByImage.get(imageA) === 1);
      expect(runtime.warmPoolByImage.get(imageA)).toBe(1);

      // A's ready sandbox serves neither B nor the host image.
      expect(await use("b-0", imageB)).toEqual({ variant: "1", fromPool: false });
      expect((await use("host-0")).variant).toBe("host");
      expect(runtime.warmPoolByImage.get(imageA)).toBe(1);

      await waitFor(() => runtime.warmPoolByImage.get(imageB) === 1 && runtime.warmPoolByImage.get("") === 1);
      expect(await use("a-1", imageA)).toEqual({ variant: "0", fromPool: true });
      expect(await use("b-1", imageB)).toEqual({ variant: "1", fromPool: true });
      expect(await use("host-1")).toEqual({ variant: "host", fromPool: true });
    },
    TIMEOUT_MS,
  );
});
