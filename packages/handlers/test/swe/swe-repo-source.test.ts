import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createBundleDirRepoSource } from "../../src/swe/swe-repo-source";
import { fixtureInstance, SWE_BUNDLE_DIR } from "./support/swe-test-fixture";

const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" });

describe("createBundleDirRepoSource", () => {
  const scratch = mkdtempSync(join(tmpdir(), "raas-swe-source-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const instance = fixtureInstance("raas-fixtures__spans-12");

  it("serves a shipped bundle as is", async () => {
    const bytes = await createBundleDirRepoSource({ dir: SWE_BUNDLE_DIR }).bundle(instance.repo);
    expect(Buffer.from(bytes).equals(readFileSync(join(SWE_BUNDLE_DIR, "raas-fixtures__spans.bundle")))).toBe(
      true,
    );
  });

  it("bundles a git mirror whose refs reach the base commit", async () => {
    const mirrors = join(scratch, "mirrors");
    execFileSync("git", [
      "clone",
      "-q",
      "--mirror",
      join(SWE_BUNDLE_DIR, "raas-fixtures__spans.bundle"),
      join(mirrors, "raas-fixtures__spans.git"),
    ]);
    const bytes = await createBundleDirRepoSource({ dir: mirrors }).bundle(instance.repo);
    const file = join(scratch, "out.bundle");
    writeFileSync(file, bytes);
    const checkout = join(scratch, "checkout");
    execFileSync("git", ["clone", "-q", "--no-checkout", file, checkout]);
    expect(git(checkout, "cat-file", "-t", instance.base_commit).trim()).toBe("commit");
  });

  it("names the expected file names when a repository is missing", async () => {
    await expect(createBundleDirRepoSource({ dir: scratch }).bundle("nobody/nothing")).rejects.toThrow(
      /nobody__nothing\.bundle, nobody__nothing\.git or nobody__nothing\//,
    );
  });
});
