import { execFile } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { BASE_BUNDLE_REF } from "./swe-shell-scripts";

const run = promisify(execFile);

/** Where the SWE handler gets a repository from: a git bundle of one instance's history. */
export interface SweRepoSource {
  /**
   * A git bundle whose only ref, `refs/raas/base`, is `baseCommit` of `repo` (`owner/name`), with
   * that commit's history and nothing else: no later commits, other branches or tags. Rejects
   * when the repository or the commit is missing.
   */
  bundle(repo: string, baseCommit: string): Promise<Uint8Array>;
}

export interface BundleDirRepoSourceOptions {
  /**
   * Directory holding `<owner>__<name>.bundle` files, or git mirrors `<owner>__<name>.git` /
   * `<owner>__<name>/` (read only: never written to).
   */
  dir: string;
  /** `git` on the host. Default `git` on the PATH. */
  gitPath?: string;
  /**
   * Scratch directory for repositories unpacked from bundles (`close` removes what it put there).
   * Default: a new directory under the OS temp dir, removed by `close`.
   */
  workDir?: string;
  /** Per-instance bundles kept in memory. Default 8. */
  maxCachedBundles?: number;
}

/** A `SweRepoSource` that can remove its scratch directory. */
export interface ClosableSweRepoSource extends SweRepoSource {
  close(): Promise<void>;
}

/**
 * A repo source over a local directory of bundles and mirrors. Each repository's full history
 * stays on the host (a bundle is unpacked once into the scratch directory; a mirror is read in
 * place); every `bundle(repo, baseCommit)` call cuts a bundle of `baseCommit`'s history alone,
 * so instances of one repository never see each other's futures.
 */
export function createBundleDirRepoSource(options: BundleDirRepoSourceOptions): ClosableSweRepoSource {
  const git = (args: string[], cwd?: string) =>
    run(options.gitPath ?? "git", args, { cwd, maxBuffer: 16 * 1024 ** 2 });
  let workDir: Promise<string> | null = null;
  const scratch = () => {
    workDir ??= options.workDir
      ? mkdir(options.workDir, { recursive: true }).then(() => options.workDir as string)
      : mkdtemp(join(tmpdir(), "raas-swe-repos-"));
    return workDir;
  };
  const objectDirs = new Map<string, Promise<string>>();
  const unpackedDirs: string[] = [];
  const bundles = new Map<string, Promise<Uint8Array>>();
  const maxCached = Math.max(0, options.maxCachedBundles ?? 8);

  /** The object directory holding the repository's full history on the host. */
  const objectDir = async (repo: string): Promise<string> => {
    const key = repo.replace("/", "__");
    const bundlePath = join(options.dir, `${key}.bundle`);
    if (existsSync(bundlePath)) {
      const unpacked = join(await scratch(), `${key}.git`);
      await rm(unpacked, { recursive: true, force: true });
      unpackedDirs.push(unpacked);
      await git(["clone", "-q", "--bare", bundlePath, unpacked]);
      return join(unpacked, "objects");
    }
    for (const mirror of [join(options.dir, `${key}.git`), join(options.dir, key)]) {
      if (existsSync(mirror) && statSync(mirror).isDirectory()) {
        const { stdout } = await git(["rev-parse", "--path-format=absolute", "--git-common-dir"], mirror);
        return join(stdout.trim(), "objects");
      }
    }
    throw new Error(
      `no bundle or mirror of ${repo} in ${options.dir} (expected ${key}.bundle, ${key}.git or ${key}/)`,
    );
  };

  /** A throwaway repository borrowing the objects, with one ref at the base: bundle that ref. */
  const cut = async (repo: string, baseCommit: string): Promise<Uint8Array> => {
    let objects = objectDirs.get(repo);
    if (!objects) {
      objects = objectDir(repo);
      objectDirs.set(repo, objects);
      objects.catch(() => objectDirs.delete(repo));
    }
    const tmp = await mkdtemp(join(await scratch(), "cut-"));
    try {
      await git(["init", "-q", "--bare", tmp]);
      await writeFile(join(tmp, "objects", "info", "alternates"), `${await objects}\n`);
      try {
        await git(["cat-file", "-e", `${baseCommit}^{commit}`], tmp);
      } catch {
        throw new Error(`${repo} has no commit ${baseCommit}`);
      }
      await git(["update-ref", BASE_BUNDLE_REF, baseCommit], tmp);
      const file = join(tmp, "base.bundle");
      await git(["bundle", "create", "-q", file, BASE_BUNDLE_REF], tmp);
      return new Uint8Array(await readFile(file));
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  };

  return {
    bundle(repo, baseCommit) {
      const key = `${repo}@${baseCommit}`;
      let entry = bundles.get(key);
      if (entry) {
        bundles.delete(key);
      } else {
        entry = cut(repo, baseCommit);
        entry.catch(() => bundles.delete(key));
      }
      // Most recently used last; the oldest entries go past the cap.
      bundles.set(key, entry);
      for (const old of bundles.keys()) {
        if (bundles.size <= maxCached) break;
        bundles.delete(old);
      }
      return entry;
    },
    async close() {
      bundles.clear();
      objectDirs.clear();
      if (workDir && !options.workDir) await rm(await workDir, { recursive: true, force: true });
      for (const dir of unpackedDirs.splice(0)) await rm(dir, { recursive: true, force: true });
      workDir = null;
    },
  };
}
