import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { ImageSource } from "./image-source";
import { runImageTool } from "./image-tools";

type PackedSource = Exclude<ImageSource, { kind: "rootfs-dir" }>;

/** The tag an archive's image gets in the scratch OCI layout skopeo writes. */
const SCRATCH_TAG = "image";

/**
 * Unpacks `source` into `dir` (which must not exist yet), leaving its root filesystem at
 * `dir/rootfs`. OCI images go through `umoci unpack --rootless` (layers in order, whiteouts
 * applied, files owned by this user); archives first become an OCI layout with `skopeo copy`;
 * a SIF's squashfs partition is read in place by `unsquashfs -o`, without its `dev/` (bubblewrap
 * gives every sandbox its own, and an unprivileged unsquashfs cannot make device nodes).
 */
export async function unpackImage(source: PackedSource, dir: string): Promise<void> {
  switch (source.kind) {
    case "oci-layout":
      await runImageTool("umoci", ["unpack", "--rootless", "--image", `${source.path}:${source.tag}`, dir]);
      return;
    case "oci-archive":
    case "docker-archive": {
      const layout = `${dir}.layout`;
      try {
        await runImageTool("skopeo", [
          "copy",
          "--quiet",
          "--insecure-policy",
          `${source.kind}:${source.path}`,
          `oci:${layout}:${SCRATCH_TAG}`,
        ]);
        await runImageTool("umoci", ["unpack", "--rootless", "--image", `${layout}:${SCRATCH_TAG}`, dir]);
      } finally {
        await rm(layout, { recursive: true, force: true });
      }
      return;
    }
    case "sif":
      await mkdir(dir);
      await runImageTool("unsquashfs", [
        "-quiet",
        "-no-progress",
        "-no-xattrs",
        "-excludes",
        "-offset",
        String(source.partition.offset),
        "-dest",
        join(dir, "rootfs"),
        source.path,
        "dev",
      ]);
      return;
  }
}
