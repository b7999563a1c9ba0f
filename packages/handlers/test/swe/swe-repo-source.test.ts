import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createBundleDirRepoSource } from "../../src/swe/swe-repo-source";
import { fixtureInstance, SWE_BUNDLE_DIR } from "./support/swe-test-fixture";

const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" });
const early = fixtureInstance("raas-fixtures__ledger-1");
const late = fixtureInstance("raas-fixtures__ledger-2");

describe("createBundleDirRepoSource", () => {
  const scratch = mkdtempSync(join(tmpdir(), "raas-swe-source-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  let n = 0;
  /** Clones a bundle and returns every commit reachable from any ref, and the refs. */
  const inspect = (bytes: Uint8Array) => {
    n += 1;
    const file = join(scratch, `b${n}.bundle`);
    writeFileSync(file, bytes);
    const heads = git(scratch, "bundle", "list-heads", file).trim().split("\n");
    const checkout = join(scratch, `c${n}`);
    execFileSync("git", ["init", "-q", "--bare", checkout]);
    git(checkout, "fetch", "-q", file, "+refs/*:refs/*");
    return { heads, commits: git(checkout, "rev-list", "--all").trim().split("\n"), checkout };
  };

  it("cuts one bundle per instance: one ref at base_commit, none of the repository's later history", async () => {
    const source = createBundleDirRepoSource({ dir: SWE_BUNDLE_DIR, workDir: join(scratch, "work") });
    try {
      const first = inspect(await source.bundle(early.repo, early.base_commit));
      expect(first.heads).toEqual([`${early.base_commit} refs/raas/base`]);
      expect(first.commits).toEqual([early.base_commit]);
      expect(() => git(first.checkout, "cat-file", "-e", late.base_commit)).toThrow();
      const second = inspect(await source.bundle(late.repo, late.base_commit));
      // The later instance sees the earlier base and its fix commit, as its real history.
      expect(second.commits).toHaveLength(3);
      expect(second.commits).toContain(early.base_commit);
      // The fix commit between them is not in the early bundle either.
      const fix = second.commits.find((c) => c !== early.base_commit && c !== late.base_commit) as string;
      expect(() => git(first.checkout, "cat-file", "-e", fix)).toThrow();
    } finally {
      await source.close();
    }
    expect(readdirSync(join(scratch, "work"))).toEqual([]);
  });

  it("cuts from a git mirror without writing to it", async () => {
    const mirrors = join(scratch, "mirrors");
    const mirror = join(mirrors, "raas-fixtures__ledger.git");
    execFileSync("git", [
      "clone",
      "-q",
      "--mirror",
      join(SWE_BUNDLE_DIR, "raas-fixtures__ledger.bundle"),
      mirror,
    ]);
    const refsBefore = git(mirror, "for-each-ref");
    const source = createBundleDirRepoSource({ dir: mirrors });
    try {
      const cut = inspect(await source.bundle(early.repo, early.base_commit));
      expect(cut.commits).toEqual([early.base_commit]);
    } finally {
      await source.close();
    }
    expect(git(mirror, "for-each-ref")).toBe(refsBefore);
  });

  it("names the expected file names when a repository is missing, and a missing commit", async () => {
    const source = createBundleDirRepoSource({ dir: SWE_BUNDLE_DIR });
    try {
      await expect(
        createBundleDirRepoSource({ dir: scratch }).bundle("nobody/nothing", "a".repeat(40)),
      ).rejects.toThrow(/nobody__nothing\.bundle, nobody__nothing\.git or nobody__nothing\//);
      await expect(source.bundle(early.repo, "b".repeat(40))).rejects.toThrow(
        /raas-fixtures\/ledger has no commit b{40}/,
      );
    } finally {
      await source.close();
    }
  });
});
