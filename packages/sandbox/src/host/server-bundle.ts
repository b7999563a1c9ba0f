import { createHash } from "node:crypto";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

/** Host paths of what the execution server needs inside a sandbox. */
export interface ServerBundle {
  /** Directory holding `exec-server.cjs` and `python-driver.py`; bind it read-only. */
  dir: string;
  /** Host directory of the node-pty package (with its compiled native module). */
  nodePtyDir: string;
  /** Node binary that runs the server. */
  nodePath: string;
}

const serverDir = fileURLToPath(new URL("../server/", import.meta.url));
const building = new Map<string, Promise<ServerBundle>>();

/**
 * Bundles the execution server (TypeScript) into one CommonJS file with esbuild, once per
 * cache directory and content hash. node-pty stays external: its native module must come
 * from the host install, bound into the sandbox next to the bundle.
 */
export function ensureServerBundle(cacheDir: string): Promise<ServerBundle> {
  let pending = building.get(cacheDir);
  if (!pending) {
    pending = buildBundle(cacheDir);
    building.set(cacheDir, pending);
    pending.catch(() => building.delete(cacheDir));
  }
  return pending;
}

async function buildBundle(cacheDir: string): Promise<ServerBundle> {
  const result = await build({
    entryPoints: [join(serverDir, "exec-server-main.ts")],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["node-pty"],
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]!.contents;
  const driverSource = join(serverDir, "python-driver.py");
  const hash = createHash("sha256")
    .update(code)
    .update(readFileSync(driverSource))
    .digest("hex")
    .slice(0, 16);
  const dir = join(cacheDir, `server-${hash}`);
  publish(dir, "exec-server.cjs", (staging) => {
    writeFileSync(join(staging, "exec-server.cjs"), code, { mode: 0o644 });
    copyFileSync(driverSource, join(staging, "python-driver.py"));
  });
  return { dir, nodePtyDir: stageNodePty(cacheDir), nodePath: process.execPath };
}

/**
 * Copies the runtime part of node-pty (package.json, lib/, build/Release/) into the cache
 * directory. Sandboxes bind it from there rather than from the install: the sandbox user may not
 * be able to traverse the checkout (a clone in a 0700 directory, a home directory).
 */
function stageNodePty(cacheDir: string): string {
  const require = createRequire(import.meta.url);
  const source = dirname(require.resolve("node-pty/package.json"));
  const native = statSync(join(source, "build", "Release", "pty.node"));
  const { version } = JSON.parse(readFileSync(join(source, "package.json"), "utf8")) as { version: string };
  const dir = join(cacheDir, `node-pty-${version}-${native.size}-${Math.floor(native.mtimeMs)}`, "node-pty");
  publish(dir, "package.json", (staging) => {
    for (const part of ["package.json", "lib", join("build", "Release")]) {
      cpSync(join(source, part), join(staging, part), { recursive: true });
    }
  });
  return dir;
}

/**
 * Writes a directory beside its final path and renames it into place, so concurrent processes
 * never see a half-written one. `marker` is a file whose presence means the directory is complete.
 */
function publish(dir: string, marker: string, write: (staging: string) => void): void {
  if (existsSync(join(dir, marker))) return;
  const staging = `${dir}.${process.pid}.tmp`;
  mkdirSync(staging, { recursive: true, mode: 0o755 });
  write(staging);
  mkdirSync(dirname(dir), { recursive: true, mode: 0o755 });
  try {
    renameSync(staging, dir);
  } catch (error) {
    if (!existsSync(join(dir, marker))) throw error;
  }
}
