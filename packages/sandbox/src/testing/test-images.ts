import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { acquireFileLock } from "../images/file-lock";
import { findExecutable } from "../runtimes/find-executable";

const run = promisify(execFile);
const SEARCH_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** The tools that build the test images, with the Debian package of each. */
const BUILD_TOOLS: Record<string, string> = {
  mmdebstrap: "mmdebstrap",
  umoci: "umoci",
  skopeo: "skopeo",
  mksquashfs: "squashfs-tools",
  unsquashfs: "squashfs-tools",
  siftool: "siftool",
};

/** What goes into a test image beyond Debian trixie's `apt` variant. */
interface TestImageRecipe {
  /** Debian packages installed with mmdebstrap. Default `["python3"]` (3.13, newer than the host's bookworm 3.11). */
  packages?: readonly string[];
  /** Files written into the root filesystem before packing, by path relative to `/`. Default none. */
  files?: Readonly<Record<string, string>>;
}

/** Packs `rootfs/` as an OCI layout (tag `trixie`), an OCI archive, a docker archive and a SIF. */
const PACK_STEPS = [
  ["umoci", "init", "--layout", "oci"],
  ["umoci", "new", "--image", "oci:trixie"],
  ["umoci", "insert", "--rootless", "--image", "oci:trixie", "rootfs", "/"],
  ["skopeo", "copy", "--quiet", "--insecure-policy", "oci:oci:trixie", "oci-archive:trixie-oci.tar"],
  ["skopeo", "copy", "--quiet", "--insecure-policy", "oci:oci:trixie", "docker-archive:trixie-docker.tar"],
  ["mksquashfs", "rootfs", "trixie.sqfs", "-noappend", "-quiet", "-no-progress", "-comp", "lz4"],
  ["siftool", "new", "trixie.sif"],
  [
    "siftool",
    "add",
    "--datatype",
    "4",
    "--parttype",
    "2",
    "--partfs",
    "1",
    "--partarch",
    "2",
    "trixie.sif",
    "trixie.sqfs",
  ],
  ["rm", "trixie.sqfs"],
];

/**
 * Debian trixie with `packages` (and `files`), as an OCI layout, an OCI archive, a docker save
 * archive and a SIF. dev/ is emptied: an unprivileged unpack cannot make device nodes, and every
 * sandbox gets its own /dev.
 */
function recipeSteps(packages: readonly string[]): string[][] {
  return [
    ["mmdebstrap", "--quiet", "--variant=apt", `--include=${packages.join(",")}`, "trixie", "rootfs"],
    ["sh", "-c", "rm -rf rootfs/dev/*"],
    ...PACK_STEPS,
  ];
}

/** Paths of the built test images (all the same Debian trixie root filesystem). */
export interface TestImages {
  rootfsDir: string;
  ociLayout: string;
  ociArchive: string;
  dockerArchive: string;
  sif: string;
  /** How long building took, in ms; 0 when an earlier test file (or run) had built them. */
  buildMs: number;
}

function imagesAt(dir: string, buildMs: number): TestImages {
  return {
    rootfsDir: join(dir, "rootfs"),
    ociLayout: join(dir, "oci"),
    ociArchive: join(dir, "trixie-oci.tar"),
    dockerArchive: join(dir, "trixie-docker.tar"),
    sif: join(dir, "trixie.sif"),
    buildMs,
  };
}

function writeRecipeFiles(rootfs: string, files: ReadonlyArray<[string, string]>): void {
  for (const [path, text] of files) {
    const target = join(rootfs, path);
    mkdirSync(dirname(target), { recursive: true, mode: 0o755 });
    writeFileSync(target, text, { mode: 0o644 });
  }
}

/** Fails (never skips) naming the apt package of each missing build tool. */
function requireBuildTools(): void {
  const missing = Object.keys(BUILD_TOOLS).filter((tool) => findExecutable(tool, SEARCH_PATH) === undefined);
  if (missing.length > 0) {
    const packages = [...new Set(missing.map((tool) => BUILD_TOOLS[tool]))].join(" ");
    throw new Error(
      `the image tests build images with ${missing.join(", ")}, which are not installed: run \`apt-get install -y ${packages}\``,
    );
  }
}

/**
 * The test images, built once per machine into `<tmpdir>/raas-test-images/<recipe hash>` (about
 * 2 minutes, needs the Debian archive) and reused by every test file and run after that. A lock
 * makes concurrent test files wait for one build; a build that died is never used (the
 * directory is renamed into place only when complete).
 */
export async function buildTestImages(recipe: TestImageRecipe = {}): Promise<TestImages> {
  requireBuildTools();
  const steps = recipeSteps(recipe.packages ?? ["python3"]);
  const files = Object.entries(recipe.files ?? {}).sort(([a], [b]) => a.localeCompare(b));
  // Without files the hash is the one of the steps alone, as before files existed.
  const hashed = files.length === 0 ? steps : [steps, files];
  const hash = createHash("sha256").update(JSON.stringify(hashed)).digest("hex").slice(0, 16);
  const parent = join(tmpdir(), "raas-test-images");
  mkdirSync(parent, { recursive: true, mode: 0o755 });
  const dir = join(parent, hash);
  const lock = await acquireFileLock(join(parent, `${hash}.lock`), { wait: true });
  try {
    if (existsSync(join(dir, "complete"))) return imagesAt(dir, 0);
    for (const name of readdirSync(parent)) {
      if (name.startsWith(`${hash}.tmp`)) rmSync(join(parent, name), { recursive: true, force: true });
    }
    const work = `${dir}.tmp-${process.pid}`;
    mkdirSync(work, { mode: 0o755 });
    const started = Date.now();
    for (const [index, [command, ...args]] of steps.entries()) {
      // Files land in the root filesystem right after it is built (step 0), before packing.
      if (index === 2) writeRecipeFiles(join(work, "rootfs"), files);
      try {
        await run(command!, args, {
          cwd: work,
          maxBuffer: 64 * 1024 ** 2,
          // Only what the build tools need (a library reads no env): system PATH, home, temp dir.
          env: { PATH: SEARCH_PATH, HOME: homedir(), TMPDIR: tmpdir(), LC_ALL: "C.UTF-8" },
        });
      } catch (error) {
        const stderr = String((error as { stderr?: unknown }).stderr ?? error).trim();
        throw new Error(`building the test images failed at \`${[command, ...args].join(" ")}\`: ${stderr}`);
      }
    }
    writeFileSync(join(work, "complete"), "");
    rmSync(dir, { recursive: true, force: true });
    renameSync(work, dir);
    return imagesAt(dir, Date.now() - started);
  } finally {
    await lock?.release();
  }
}
