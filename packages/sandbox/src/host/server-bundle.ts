import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
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
  if (!existsSync(join(dir, "exec-server.cjs"))) {
    // Build beside the target and rename, so concurrent processes never see a half-written bundle.
    const staging = `${dir}.${process.pid}.tmp`;
    mkdirSync(staging, { recursive: true, mode: 0o755 });
    writeFileSync(join(staging, "exec-server.cjs"), code, { mode: 0o644 });
    copyFileSync(driverSource, join(staging, "python-driver.py"));
    try {
      renameSync(staging, dir);
    } catch (error) {
      if (!existsSync(join(dir, "exec-server.cjs"))) throw error;
    }
  }
  const require = createRequire(import.meta.url);
  return {
    dir,
    nodePtyDir: dirname(require.resolve("node-pty/package.json")),
    nodePath: process.execPath,
  };
}
