import { createHash } from "node:crypto";
import {
  chmodSync,
  chownSync,
  copyFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

/** Host paths of what the execution server needs inside a sandbox. */
export interface ServerBundle {
  /** Directory holding `exec-server.cjs`, `loopback-forwarder.cjs` and `python-driver.py`; bind it read-only. */
  dir: string;
  /** Host directory of the node-pty package (with its compiled native module). */
  nodePtyDir: string;
  /** Node binary that runs the server: an execute-only copy (see {@link stageExecOnlyBinaries}). */
  nodePath: string;
  /** An execute-only copy of the host's bash, for the agent's shell. */
  bashPath: string;
}

const serverDir = fileURLToPath(new URL("../server/", import.meta.url));
const building = new Map<string, Promise<ServerBundle>>();

/**
 * Default directory of the execute-only copies of node and bash: one per host user, shared by
 * every base directory and process, so a base directory never holds a ~96 MB copy of node (a
 * small tmpfs as base directory works).
 */
export function defaultExecBinDir(): string {
  return join(tmpdir(), `raas-exec-bin-${process.getuid?.() ?? "user"}`);
}

/**
 * Bundles the execution server (TypeScript) into one CommonJS file with esbuild, once per
 * cache directory and content hash. node-pty stays external: its native module must come
 * from the host install, bound into the sandbox next to the bundle. The execute-only binaries
 * go to `binDir` (default {@link defaultExecBinDir}), shared by every cache directory.
 */
export function ensureServerBundle(
  cacheDir: string,
  owner?: { uid: number; gid: number },
  binDir: string = defaultExecBinDir(),
): Promise<ServerBundle> {
  const key = `${cacheDir}\0${owner?.uid ?? ""}\0${binDir}`;
  let pending = building.get(key);
  if (!pending) {
    pending = buildBundle(cacheDir, owner, binDir);
    building.set(key, pending);
    pending.catch(() => building.delete(key));
  }
  return pending;
}

async function buildBundle(
  cacheDir: string,
  owner: { uid: number; gid: number } | undefined,
  binDir: string,
): Promise<ServerBundle> {
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
  const forwarder = await build({
    entryPoints: [join(serverDir, "loopback-forwarder.ts")],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    write: false,
    logLevel: "silent",
  });
  const forwarderCode = forwarder.outputFiles[0]!.contents;
  const driverSource = join(serverDir, "python-driver.py");
  const hash = createHash("sha256")
    .update(code)
    .update(forwarderCode)
    .update(readFileSync(driverSource))
    .digest("hex")
    .slice(0, 16);
  const dir = join(cacheDir, `server-${hash}`);
  publish(dir, "exec-server.cjs", (staging) => {
    writeFileSync(join(staging, "exec-server.cjs"), code, { mode: 0o644 });
    writeFileSync(join(staging, "loopback-forwarder.cjs"), forwarderCode, { mode: 0o644 });
    copyFileSync(driverSource, join(staging, "python-driver.py"));
  });
  const bin = stageExecOnlyBinaries(binDir, owner);
  return {
    dir,
    nodePtyDir: stageNodePty(cacheDir),
    nodePath: join(bin, "node"),
    bashPath: join(bin, "bash"),
  };
}

/**
 * Copies node and bash into `binDir` with mode 0111 (execute only). A process that
 * executes a file it cannot read is not dumpable: other processes of the same uid can neither
 * ptrace it nor read its /proc/<pid>/mem or fds. So the execution server and the agent's shell
 * (which holds each command's end-marker nonce) stay out of reach of the tools' processes.
 * The copies belong to the sandbox's host uid (`owner`), so the kernel keeps the shell's memory
 * owned by the jail's user namespace: the execution server, which created that namespace, can
 * still read the shell's /proc state (to see it wait for terminal input); the tools cannot.
 * Sandboxes bind the copies read-only, so nothing inside can change them; `binDir` itself must
 * be this user's and writable by no one else (it is under the shared /tmp by default), or a
 * local user could plant the binary every sandbox runs.
 */
function stageExecOnlyBinaries(binDir: string, owner?: { uid: number; gid: number }): string {
  const sources = { node: process.execPath, bash: realpathSync("/bin/bash") };
  const key = Object.values(sources)
    .map((path) => {
      const stat = statSync(path);
      return `${stat.size}-${Math.floor(stat.mtimeMs)}`;
    })
    .join("-");
  const suffix = owner ? `-u${owner.uid}` : "";
  ensurePrivateDir(binDir);
  const dir = join(binDir, `bin${suffix}-${createHash("sha256").update(key).digest("hex").slice(0, 12)}`);
  publish(dir, "bash", (staging) => {
    for (const [name, source] of Object.entries(sources)) {
      copyFileSync(source, join(staging, name));
      if (owner) chownSync(join(staging, name), owner.uid, owner.gid);
      chmodSync(join(staging, name), 0o111);
    }
  });
  return dir;
}

/**
 * Creates `dir` (mode 0755) if missing and checks it is a real directory owned by this process's
 * user that no one else can write to.
 */
function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const stat = lstatSync(dir);
  const uid = process.getuid?.();
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o022) !== 0) {
    throw new Error(
      `refusing the execute-only binary directory ${dir}: it must be a directory owned by uid ${uid ?? "?"} and writable by no one else (remove it, or choose another execBinDir)`,
    );
  }
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
  try {
    write(staging);
  } catch (error) {
    // A full disk must not also keep the half-written copy.
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  mkdirSync(dirname(dir), { recursive: true, mode: 0o755 });
  try {
    renameSync(staging, dir);
  } catch (error) {
    if (!existsSync(join(dir, marker))) throw error;
  }
}
