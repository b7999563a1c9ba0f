// Acquires one image in a cache directory, as another worker process on the host would:
// `image-acquire-child.ts <cacheDir> <reference> [capBytes]`; prints the lease as JSON, then holds it until killed.
import { ImageCache } from "../../src/index";

const [cacheDir, reference, capBytes] = process.argv.slice(2);
const cache = new ImageCache({ dir: cacheDir!, ...(capBytes ? { capBytes: Number(capBytes) } : {}) });
const lease = await cache.acquire(reference!);
process.stdout.write(`${JSON.stringify({ rootfs: lease.rootfs, isHit: lease.isHit })}\n`);
setInterval(() => undefined, 60_000);
