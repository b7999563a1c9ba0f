import type { Sandbox } from "@raas/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { materializeRepository } from "../../src/swe/repo-materializer";
import { createBundleDirRepoSource } from "../../src/swe/swe-repo-source";
import { repoPath } from "../../src/swe/swe-shell-scripts";
import { createSweTestRuntime, fixtureInstance, SWE_BUNDLE_DIR } from "./support/swe-test-fixture";

const early = fixtureInstance("raas-fixtures__ledger-1");
const late = fixtureInstance("raas-fixtures__ledger-2");
const repoSource = createBundleDirRepoSource({ dir: SWE_BUNDLE_DIR });
let fixture: ReturnType<typeof createSweTestRuntime>;

beforeAll(() => {
  fixture = createSweTestRuntime();
});
afterAll(async () => {
  await fixture?.dispose();
  await repoSource.close();
});

/** A sandbox with the instance's repository materialized, as INIT and EVAL see it. */
async function materialized(instance: typeof early): Promise<Sandbox> {
  const sandbox = await fixture.runtime.create({});
  const signal = new AbortController().signal;
  await materializeRepository({
    sandbox,
    instance,
    bundle: await repoSource.bundle(instance.repo, instance.base_commit),
    spec: {},
    timeoutMs: 60_000,
    signal,
  });
  return sandbox;
}

async function git(sandbox: Sandbox, instance: typeof early, args: string) {
  const result = await sandbox.exec(["bash", "-c", `git ${args}`], {
    cwd: repoPath(instance.repo),
    timeoutMs: 30_000,
  });
  return { exitCode: result.exitCode, out: `${result.stdout}${result.stderr}`.trim() };
}

describe("the repository inside the sandbox holds history up to base_commit only", () => {
  it("shows the earlier instance nothing of the later fix: no commit, ref, reflog or dangling object", async () => {
    const lateSandbox = await materialized(late);
    const lateLog = (await git(lateSandbox, late, "log --all --format=%H")).out.split("\n");
    await lateSandbox.close();
    expect(lateLog[0]).toBe(late.base_commit);
    expect(lateLog).toHaveLength(3);
    const fixSha = lateLog[1] as string;

    const sandbox = await materialized(early);
    try {
      expect((await git(sandbox, early, "log --all --format=%H")).out).toBe(early.base_commit);
      expect((await git(sandbox, early, `show ${fixSha}`)).exitCode).not.toBe(0);
      expect((await git(sandbox, early, `show ${late.base_commit}`)).exitCode).not.toBe(0);
      expect(await git(sandbox, early, "for-each-ref")).toEqual({ exitCode: 0, out: "" });
      expect(await git(sandbox, early, "reflog --all")).toEqual({ exitCode: 0, out: "" });
      expect(await git(sandbox, early, "stash list")).toEqual({ exitCode: 0, out: "" });
      const fsck = await git(sandbox, early, "fsck --lost-found --no-progress");
      expect(fsck.exitCode).toBe(0);
      expect(fsck.out).not.toMatch(/dangling|unreachable/);
      expect((await git(sandbox, early, "count-objects -v")).out).toMatch(/^count: 0$/m);
      // ledger-1's own fix (committed before ledger-2's base) is nowhere in the object store.
      expect(
        (await git(sandbox, early, "grep -c -- 'append(-amount)' $(git rev-list --all) || true")).out,
      ).toBe("");
      expect((await git(sandbox, early, "rev-parse HEAD")).out).toBe(early.base_commit);
      expect((await git(sandbox, early, "status --porcelain")).out).toBe("");
    } finally {
      await sandbox.close();
    }
  });
});
