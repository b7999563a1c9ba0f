import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SandboxSpec } from "@raas/engine";
import { type BubblewrapRuntimeOptions, ImageCache } from "../../src/index";
import { createTestRuntime } from "./sandbox-fixture";
import { buildTestImages } from "./test-images";

/**
 * A root filesystem the isolation suites run on: the host's own, or a test image from the image
 * cache. Suites take them with `describe.each(SANDBOX_TARGETS)`, so every attack runs on both.
 */
export interface SandboxTarget {
  name: string;
  /** Builds what the target needs (the test image, ~1 min the first time on a machine). */
  prepare(): Promise<void>;
  /** Spec fields that put a sandbox on this target; call after `prepare`. */
  spec(): Pick<SandboxSpec, "image">;
  /** A bubblewrap runtime as `createTestRuntime` makes it, with this target's image cache. */
  createRuntime(options?: BubblewrapRuntimeOptions): ReturnType<typeof createTestRuntime>;
  /** The host directory of the root filesystem its sandboxes run on; call after `prepare`. */
  rootfs(): Promise<{ path: string; release: () => Promise<void> }>;
}

/**
 * The image carries what the suites use (`python3`, `pgrep`/`pkill`, `gdb`). Its cache directory
 * is kept across test files and runs like the images themselves: the cache is made to be shared
 * between processes, and an unpack per suite would only cost time.
 */
export const IMAGE_PACKAGES = ["python3", "procps", "gdb"];
const imageCache = new ImageCache({ dir: join(tmpdir(), "raas-isolation-test-image-cache") });

const hostTarget: SandboxTarget = {
  name: "host root filesystem",
  prepare: () => Promise.resolve(),
  spec: () => ({}),
  createRuntime: (options = {}) => createTestRuntime(options),
  rootfs: () => Promise.resolve({ path: "/", release: () => Promise.resolve() }),
};

function imageTarget(): SandboxTarget {
  let reference: string | undefined;
  const requireReference = (): string => {
    if (reference === undefined) throw new Error("the image target is used before prepare()");
    return reference;
  };
  return {
    name: "OCI image (Debian trixie)",
    prepare: async () => {
      reference ??= (await buildTestImages({ packages: IMAGE_PACKAGES })).ociArchive;
    },
    spec: () => ({ image: requireReference() }),
    createRuntime: (options = {}) => createTestRuntime({ imageCache, ...options }),
    rootfs: async () => {
      const lease = await imageCache.acquire(requireReference());
      return { path: lease.rootfs, release: () => lease.release() };
    },
  };
}

export const SANDBOX_TARGETS: readonly SandboxTarget[] = [hostTarget, imageTarget()];

/** How long a suite's `beforeAll` may take: building the image the first time on a machine. */
export const PREPARE_TIMEOUT_MS = 600_000;
