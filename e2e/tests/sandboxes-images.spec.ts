import { expect, test } from "@playwright/test";
import { buildTestImages } from "@raas/sandbox/testing";
import { formatBytes, formatDurationMs } from "../../apps/web/src/lib/format";
import { apiClient } from "../support/api-client";
import { e2eUrls } from "../support/e2e-env";

test("Sandboxes shows each worker's image cache after images.prefetch: images, size, hits and unpack times", async ({
  page,
}) => {
  test.setTimeout(600_000);
  // A Debian trixie SIF, built once per machine (about a minute the first time).
  const { sif } = await buildTestImages();
  const admin = apiClient("admin");
  const viewer = apiClient("viewer");

  const asked = await admin.images.prefetch.mutate({ images: [sif] });
  expect(asked.workers.length).toBeGreaterThanOrEqual(1);
  await expect(async () => {
    const status = await viewer.images.prefetchStatus.query({ requestId: asked.requestId });
    expect(status.isFinished).toBe(true);
    expect(status.entries.map((entry) => entry.progress.status)).toEqual(asked.workers.map(() => "done"));
  }).toPass({ timeout: 180_000 });

  await page.goto(`${e2eUrls().webUrl}/sandboxes`);
  await expect(page.getByRole("heading", { name: "Images per worker" })).toBeVisible();
  // The page polls; compare against a fresh workers.list until both agree.
  await expect(async () => {
    const { workers } = await viewer.workers.list.query({ includeStopped: false });
    const quick = { timeout: 2_500 };
    for (const workerId of asked.workers) {
      const cache = workers.find((worker) => worker.id === workerId)?.images;
      const held = cache?.images.find((image) => image.references.includes(sif));
      expect(held, `worker ${workerId} reports the prefetched image`).toBeDefined();
      if (!cache || !held) return;
      await expect(page.getByTestId(`image-count-${workerId}`)).toHaveText(
        String(cache.images.length),
        quick,
      );
      await expect(page.getByTestId(`image-cache-size-${workerId}`)).toHaveText(
        `${formatBytes(cache.usedBytes)} / ${formatBytes(cache.capBytes)}`,
        quick,
      );
      await expect(page.getByTestId(`image-hits-${workerId}`)).toHaveText(
        `${cache.hits} / ${cache.misses}`,
        quick,
      );
      await expect(page.getByTestId(`image-unpack-${workerId}-${held.key}`)).toHaveText(
        formatDurationMs(held.unpackMs),
        quick,
      );
    }
  }).toPass({ timeout: 60_000 });
  await expect(page.getByTestId("worker-images-table").getByText("trixie.sif").first()).toBeVisible();
});
