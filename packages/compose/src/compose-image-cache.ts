import { ImagePrefetcher } from "@raas/engine";
import { DEFAULT_IMAGE_CACHE_DIR, HeldImageList, ImageCache } from "@raas/sandbox";
import type { SandboxConfig } from "./compose-sandbox";

/**
 * The image cache bubblewrap sandboxes of this process unpack into (`config.imageCache`, default
 * `DEFAULT_IMAGE_CACHE_DIR`); undefined for the other runtimes, which use none.
 */
export function composeImageCache(config: SandboxConfig): ImageCache | undefined {
  if ((config.runtime ?? "bubblewrap") !== "bubblewrap") return undefined;
  return new ImageCache({
    dir: config.imageCache?.dir ?? DEFAULT_IMAGE_CACHE_DIR,
    ...(config.imageCache?.maxBytes !== undefined && { capBytes: config.imageCache.maxBytes }),
  });
}

/**
 * What a worker reports of `cache` with its heartbeats, and how it carries out the prefetches it
 * reads back: unpacks into `cache`, then `onProgress` (beat now, so the control plane sees it).
 */
export function composeImagePrefetcher(cache: ImageCache, onProgress: () => void): ImagePrefetcher {
  return new ImagePrefetcher({
    acquire: (reference) => cache.acquire(reference),
    report: () => cache.report(),
    onProgress,
  });
}

/**
 * The images `cache` holds for the engine's reserves (`ComposeOptions.heldImages`): unpacked and
 * being unpacked, by the references jobs name them with; a snapshot read again when the cache
 * changes and at most every second, never the disk per reserve. Its first read starts now.
 */
export function composeHeldImages(cache: ImageCache): HeldImageList {
  const held = new HeldImageList(cache);
  void held.refresh();
  return held;
}
