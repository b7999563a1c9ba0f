// `npm run bench -- images [--creates 20]`: bubblewrap sandboxes on images (issue 36).
//  - first use per image format: the Debian trixie test image (built once per machine by the
//    sandbox tests' builder, mmdebstrap + umoci + skopeo + siftool) as an OCI layout, an OCI
//    archive, a docker save archive and a SIF, each unpacked into a fresh cache by one
//    `runtime.create`: that create's time, the cache's own unpack time and the unpacked size;
//  - create→ready on a cached image against the host image: `--creates` creates of each, one of
//    every kind in turn (interleaved, so the machine's load moves them alike), p50 and p95.
//    `cachedCreateReadyRatio` is the slowest format's p50 over the host's p50 (target ≤ 1.5);
//  - of which the image's own share: the cache lease alone on a hit, per format (a flock child
//    per acquire is most of it).
//  - time-to-first-RUN of a batch (`--jobs 64`) over `--images 8` images (variants of the test
//    image, one marker layer each, so each has its own digest and unpack), shuffled with a fixed
//    seed, on `--workers 4` workers of `--slots 2` each, every worker with its own cache and
//    sandbox directories as separate hosts would have: placement off (reserves name no images),
//    then on (reserves name the worker's unpacked and unpacking images; `--placement-wait-ms`,
//    default the queues' own, bounds how long an item waits for such a worker). `placementSpeedup` is the mean
//    time-to-first-RUN off over on (target ≥ 1.3). `--placement-only` skips the parts above.

import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_PLACEMENT_MAX_WAIT_MS } from "@raas/engine";
import { BubblewrapRuntime, findExecutable, ImageCache } from "@raas/sandbox";
import { buildTestImages, buildTestImageVariants } from "@raas/sandbox/testing";
import type { Bench, BenchReport, BenchRow } from "./bench.types";
import { measurePlacement } from "./images/placement-rows";
import { median, percentile } from "./stats";
import { targetOf } from "./targets/bench-targets";
import { meetsTarget } from "./targets/target-verdict";

const SEARCH_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** 1-minute load average: the other work on this machine shifts every figure here. */
const loadAverage = () => Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
const round = (value: number) => Math.round(value * 10) / 10;
const mib = (bytes: number) => Math.round((bytes / 1024 ** 2) * 10) / 10;

function option(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] ? Number(args[at + 1]) : fallback;
}

/** Bytes under `path` (a file, or a directory such as an OCI layout). */
function sizeOf(path: string): number {
  return Number.parseInt(execFileSync("du", ["-s", "-B1", path]).toString(), 10);
}

/** What the cache recorded for its one entry in `cacheDir`. */
function entryMarker(cacheDir: string): { sizeBytes: number; unpackMs: number } {
  const [key] = readdirSync(join(cacheDir, "entries"));
  if (!key) throw new Error(`no cache entry in ${cacheDir} after first use`);
  return JSON.parse(readFileSync(join(cacheDir, "entries", key, "entry.json"), "utf8")) as {
    sizeBytes: number;
    unpackMs: number;
  };
}

const bench: Bench = {
  name: "images",
  description:
    "bubblewrap on images: first use (unpack) per format and size; create→ready on a cached image vs the host image; time-to-first-RUN of a batch over 8 images with image-aware placement on vs off",
  async run(args: string[]): Promise<BenchReport> {
    const creates = option(args, "creates", 20);
    const placement = {
      jobs: option(args, "jobs", 64),
      images: option(args, "images", 8),
      workers: option(args, "workers", 4),
      slotsPerWorker: option(args, "slots", 2),
      placementMaxWaitMs: option(args, "placement-wait-ms", DEFAULT_PLACEMENT_MAX_WAIT_MS),
    };
    const isPlacementOnly = args.includes("--placement-only");
    const bwrapPath = findExecutable("bwrap", SEARCH_PATH);
    if (!bwrapPath) throw new Error("the images bench needs bubblewrap: run `apt-get install -y bubblewrap`");
    const images = await buildTestImages();
    const formats: Array<[string, string]> = [
      ["OCI layout", images.ociLayout],
      ["OCI archive", images.ociArchive],
      ["docker archive", images.dockerArchive],
      ["SIF", images.sif],
    ];
    const summary: BenchReport["summary"] = { loadAverageAtStart: loadAverage() };
    const rows: BenchRow[] = [];
    const baseDir = mkdtempSync(join(tmpdir(), "raas-bench-images-"));
    chmodSync(baseDir, 0o755); // sandboxes run as an unprivileged uid and must reach their directories
    const runtimes: BubblewrapRuntime[] = [];
    const runtimeOn = (imageCache: ImageCache) => {
      const runtime = new BubblewrapRuntime({
        bwrapPath,
        baseDir: join(baseDir, "sandboxes"),
        imageCache,
        warn: () => {},
      });
      runtimes.push(runtime);
      return runtime;
    };
    try {
      if (!isPlacementOnly) await measureFormats();
      const variants = await buildTestImageVariants(images, placement.images);
      const measured = await measurePlacement({
        ...placement,
        bwrapPath,
        dir: join(baseDir, "placement"),
        variants,
      });
      rows.push(...measured.rows);
      Object.assign(summary, measured.summary);
      summary.loadAverageAtEnd = loadAverage();
    } finally {
      await Promise.all(runtimes.map((runtime) => runtime.closeAll()));
      rmSync(baseDir, { recursive: true, force: true });
    }
    async function measureFormats(): Promise<void> {
      // First use: each format into a cache of its own (the OCI layout and archive are one image,
      // one key: a shared cache would make the second a hit).
      for (const [format, path] of formats) {
        const cacheDir = join(baseDir, `cache-${format.replace(/ /g, "-")}`);
        const runtime = runtimeOn(new ImageCache({ dir: cacheDir }));
        const startedAt = performance.now();
        const sandbox = await runtime.create({ image: path });
        const firstCreateMs = performance.now() - startedAt;
        await sandbox.close();
        const marker = entryMarker(cacheDir);
        rows.push({
          name: `first use: ${format}`,
          image_MiB: mib(statSync(path).isDirectory() ? sizeOf(path) : statSync(path).size),
          unpacked_MiB: mib(marker.sizeBytes),
          unpack_ms: marker.unpackMs,
          first_create_ms: round(firstCreateMs),
        });
        summary[`unpackMs ${format}`] = marker.unpackMs;
      }

      // Create→ready, interleaved: host, then each format, round after round, on one warm cache.
      const cache = new ImageCache({ dir: join(baseDir, "cache-shared") });
      const runtime = runtimeOn(cache);
      const kinds: Array<[string, string | undefined]> = [["host image", undefined], ...formats];
      for (const [, image] of kinds) await (await runtime.create(image ? { image } : {})).close(); // warm-up
      const samples = new Map<string, number[]>(kinds.map(([name]) => [name, []]));
      for (let pass = 0; pass < creates; pass += 1) {
        for (const [name, image] of kinds) {
          const startedAt = performance.now();
          const sandbox = await runtime.create(image ? { image } : {});
          samples.get(name)!.push(performance.now() - startedAt);
          await sandbox.close();
        }
      }
      const hostP50 = median(samples.get("host image")!);
      let worstRatio = 0;
      for (const [name] of kinds) {
        const ms = samples.get(name)!;
        const ratio = median(ms) / hostP50;
        worstRatio = Math.max(worstRatio, ratio);
        rows.push({
          name: `create→ready: ${name === "host image" ? name : `cached ${name}`}`,
          n: ms.length,
          p50_ms: round(median(ms)),
          p95_ms: round(percentile(ms, 95)),
          ratio_to_host: Math.round(ratio * 100) / 100,
        });
      }
      // The image's own share of a create: the cache lease alone, on a hit.
      const leaseMs = new Map<string, number[]>(formats.map(([name]) => [name, []]));
      for (let pass = 0; pass < creates; pass += 1) {
        for (const [name, image] of formats) {
          const startedAt = performance.now();
          const lease = await cache.acquire(image);
          leaseMs.get(name)!.push(performance.now() - startedAt);
          await lease.release();
        }
      }
      for (const [name] of formats) {
        const ms = leaseMs.get(name)!;
        rows.push({
          name: `  of which cache lease (hit): ${name}`,
          n: ms.length,
          p50_ms: Math.round(median(ms) * 100) / 100,
          p95_ms: Math.round(percentile(ms, 95) * 100) / 100,
        });
      }
      summary.hostCreateReadyP50Ms = round(hostP50);
      summary.cachedCreateReadyRatio = Math.round(worstRatio * 100) / 100;
      summary.cachedCreateReadyRatioMet = meetsTarget(
        targetOf("images", "cachedCreateReadyRatio"),
        worstRatio,
      );
    }
    return {
      bench: "images",
      description: bench.description,
      rows,
      summary,
      config: {
        creates,
        placement,
        images: Object.fromEntries(formats),
        imageBuildMs: images.buildMs,
        bwrapPath,
        cores: execFileSync("nproc").toString().trim(),
      },
    };
  },
};

export default bench;
