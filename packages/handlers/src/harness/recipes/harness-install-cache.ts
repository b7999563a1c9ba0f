import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** An npm package at an exact version. */
interface PinnedPackage {
  npmPackage: string;
  version: string;
}

interface HarnessInstallCacheOptions {
  /**
   * Host directory of the installed harnesses (`<cacheDir>/<package>@<version>/`). Sandboxes
   * mount entries read-only, and they may run as another uid: it must be searchable by others.
   */
  cacheDir: string;
  /** The npm client. Default `npm` on PATH. */
  npmPath?: string;
  /** Registry URL for `npm install`. Default npm's own configuration. */
  registry?: string;
  /** Time limit of one `npm install`, in ms. Default 600_000. */
  installTimeoutMs?: number;
  /** How often a process waiting on another's install looks again, in ms. Default 250. */
  pollMs?: number;
}

export interface HarnessInstallCache {
  /**
   * The host directory of `pkg` installed (`node_modules/.bin/<bin>` inside): installed once per
   * host, the first caller installing while every other (in this process or another sharing the
   * cache) waits for it. Throws an Error naming the package and npm's own words when npm fails.
   */
  ensureInstalled(pkg: PinnedPackage): Promise<string>;
}

const DEFAULT_INSTALL_TIMEOUT_MS = 600_000;
/** Characters of npm's output kept in an install failure's message. */
const NPM_OUTPUT_CHARS = 2_000;

export function createHarnessInstallCache(options: HarnessInstallCacheOptions): HarnessInstallCache {
  const pending = new Map<string, Promise<string>>();
  return {
    ensureInstalled(pkg) {
      const dir = join(options.cacheDir, `${pkg.npmPackage.replaceAll("/", "+")}@${pkg.version}`);
      if (existsSync(dir)) return Promise.resolve(dir);
      let installing = pending.get(dir);
      if (!installing) {
        installing = installOnce(options, pkg, dir).finally(() => pending.delete(dir));
        pending.set(dir, installing);
      }
      return installing;
    },
  };
}

/** Installs under the cache's lock (a directory: `mkdir` is atomic), then renames into place. */
async function installOnce(
  options: HarnessInstallCacheOptions,
  pkg: PinnedPackage,
  dir: string,
): Promise<string> {
  await mkdir(options.cacheDir, { recursive: true, mode: 0o755 });
  const lock = `${dir}.lock`;
  for (;;) {
    if (existsSync(dir)) return dir;
    if (await takeLock(lock)) break;
    await sleep(options.pollMs ?? 250);
  }
  try {
    if (existsSync(dir)) return dir; // another process finished between our look and the lock
    const staging = `${dir}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
    try {
      await mkdir(staging, { mode: 0o755 });
      await runNpmInstall(options, pkg, staging);
      // Sandboxes may run as another uid: everything readable, directories searchable.
      await run("chmod", ["-R", "a+rX", staging], 60_000);
      await rename(staging, dir);
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
    return dir;
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

/** Takes the lock, or removes one whose holder (a pid on this host) is gone and says no. */
async function takeLock(lock: string): Promise<boolean> {
  try {
    await mkdir(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const holder = Number((await readFile(join(lock, "pid"), "utf8").catch(() => "")).trim());
    if (Number.isInteger(holder) && holder > 0 && !isAlive(holder)) {
      await rm(lock, { recursive: true, force: true });
    } else if (!Number.isInteger(holder) || holder <= 0) {
      // A lock without its pid file is being written; one left empty by a crash goes after a minute.
      const age = Date.now() - (await stat(lock).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
      if (age > 60_000) await rm(lock, { recursive: true, force: true });
    }
    return false;
  }
  await writeFile(join(lock, "pid"), String(process.pid));
  return true;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function runNpmInstall(
  options: HarnessInstallCacheOptions,
  pkg: PinnedPackage,
  prefix: string,
): Promise<void> {
  const spec = `${pkg.npmPackage}@${pkg.version}`;
  const args = [
    "install",
    "--prefix",
    prefix,
    "--no-audit",
    "--no-fund",
    "--no-update-notifier",
    "--loglevel=error",
    ...(options.registry ? ["--registry", options.registry] : []),
    spec,
  ];
  const npm = options.npmPath ?? "npm";
  try {
    await run(npm, args, options.installTimeoutMs ?? DEFAULT_INSTALL_TIMEOUT_MS);
  } catch (error) {
    const said =
      (error as { output?: string }).output ?? (error instanceof Error ? error.message : String(error));
    throw new Error(
      `installing the harness package ${spec} with \`${npm} install\` failed: ${said.slice(-NPM_OUTPUT_CHARS).trim()}`,
    );
  }
  await chmod(prefix, 0o755);
}

function run(command: string, args: string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: timeoutMs, maxBuffer: 16 * 1024 ** 2 }, (error, stdout, stderr) => {
      if (!error) return resolve();
      const reason = error.killed ? `no answer within ${timeoutMs} ms` : error.message.split("\n")[0];
      reject(Object.assign(new Error(reason), { output: `${reason}\n${stdout}${stderr}` }));
    });
  });
}
