import { execFile } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Where the SWE handler gets a repository from: a git bundle of it, shipped into the sandbox. */
export interface SweRepoSource {
  /** A git bundle of `repo` (`owner/name`) whose refs reach the instances' base commits. */
  bundle(repo: string): Promise<Uint8Array>;
}

export interface BundleDirRepoSourceOptions {
  /**
   * Directory holding `<owner>__<name>.bundle` files, or git mirrors `<owner>__<name>.git` /
   * `<owner>__<name>/` (bundled on first use with the host's `git`).
   */
  dir: string;
  /** `git` on the host, for mirrors. Default `git` on the PATH. */
  gitPath?: string;
}

/** A repo source over a local directory of bundles and mirrors; each repository is read once. */
export function createBundleDirRepoSource(options: BundleDirRepoSourceOptions): SweRepoSource {
  const cache = new Map<string, Promise<Uint8Array>>();
  const load = async (repo: string): Promise<Uint8Array> => {
    const key = repo.replace("/", "__");
    const bundlePath = join(options.dir, `${key}.bundle`);
    if (existsSync(bundlePath)) return new Uint8Array(await readFile(bundlePath));
    for (const mirror of [join(options.dir, `${key}.git`), join(options.dir, key)]) {
      if (existsSync(mirror) && statSync(mirror).isDirectory())
        return bundleMirror(mirror, options.gitPath ?? "git");
    }
    throw new Error(
      `no bundle or mirror of ${repo} in ${options.dir} (expected ${key}.bundle, ${key}.git or ${key}/)`,
    );
  };
  return {
    bundle(repo) {
      let entry = cache.get(repo);
      if (!entry) {
        entry = load(repo);
        cache.set(repo, entry);
        entry.catch(() => cache.delete(repo));
      }
      return entry;
    },
  };
}

async function bundleMirror(mirror: string, git: string): Promise<Uint8Array> {
  const scratch = await mkdtemp(join(tmpdir(), "raas-swe-bundle-"));
  try {
    const file = join(scratch, "repo.bundle");
    await run(git, ["-C", mirror, "bundle", "create", "-q", file, "--all"], { maxBuffer: 16 * 1024 ** 2 });
    return new Uint8Array(await readFile(file));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
