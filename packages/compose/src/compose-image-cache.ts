import { ImagePrefetcher } from "@raas/engine";
import { DEFAULT_IMAGE_CACHE_DIR, ImageCache } from "@raas/sandbox";
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
