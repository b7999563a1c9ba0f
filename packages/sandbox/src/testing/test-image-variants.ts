import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { acquireFileLock } from "../images/file-lock";
import { runImageTool } from "../images/image-tools";
import type { TestImages } from "./test-images";

/** The file each variant adds, holding its number; tests read it to tell which image they run on. */
export const VARIANT_MARKER_PATH = "/etc/raas-variant";

/**
 * `count` distinct OCI layouts of the test image (tag `trixie`), each the same root filesystem
 * plus one small layer holding `/etc/raas-variant` (`0`, `1`, …): different digests, so each is its
 * own cache entry and its own unpack, as separate images would be. Made beside the test images
 * (blobs hard-linked, one `umoci insert` each) and reused once complete.
 */
export async function buildTestImageVariants(images: TestImages, count: number): Promise<string[]> {
  const parent = join(images.ociLayout, "..", "variants");
  mkdirSync(parent, { recursive: true, mode: 0o755 });
  const lock = await acquireFileLock(join(parent, "variants.lock"), { wait: true });
  try {
    const layouts: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const layout = join(parent, `oci-${index}`);
      layouts.push(layout);
      if (existsSync(join(layout, "complete"))) continue;
      const work = `${layout}.tmp-${process.pid}`;
      rmSync(work, { recursive: true, force: true });
      mkdirSync(work, { mode: 0o755 });
      for (const file of ["oci-layout", "index.json"])
        copyFileSync(join(images.ociLayout, file), join(work, file));
      // Blobs never change (named by digest): links, not copies; umoci adds the new ones beside them.
      const blobs = join(images.ociLayout, "blobs", "sha256");
      mkdirSync(join(work, "blobs", "sha256"), { recursive: true, mode: 0o755 });
      for (const name of readdirSync(blobs)) linkSync(join(blobs, name), join(work, "blobs", "sha256", name));
      const marker = join(parent, `marker-${index}-${process.pid}`);
      writeFileSync(marker, `${index}\n`, { mode: 0o644 });
      try {
        await runImageTool("umoci", [
          "insert",
          "--rootless",
          "--image",
          `${work}:trixie`,
          marker,
          VARIANT_MARKER_PATH,
        ]);
      } finally {
        rmSync(marker, { force: true });
      }
      writeFileSync(join(work, "complete"), "");
      rmSync(layout, { recursive: true, force: true });
      renameSync(work, layout);
    }
    return layouts;
  } finally {
    await lock?.release();
  }
}
