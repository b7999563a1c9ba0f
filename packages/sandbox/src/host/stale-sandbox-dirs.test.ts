import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import type { SandboxHostStatus } from "@raas/engine";
import { afterEach, describe, expect, it } from "vitest";
import { readOwnerFile, type SandboxDirOwner, writeOwnerFile } from "./sandbox-dir-owner";
import { isOwnerDead, reapDeadHostSandboxDirs, reapStaleSandboxDirs } from "./stale-sandbox-dirs";

const here = { pid: 100, hostname: "node-a" };
const alive = () => true;
const dead = () => false;

describe("isOwnerDead", () => {
  it("never calls this process's own directories dead", () => {
    expect(isOwnerDead({ hostPid: 100, hostname: "node-a", hostId: "node-a:100" }, here, "gone", dead)).toBe(
      false,
    );
  });

  it("on this node: dead once its process is gone, unless the store says its host is live", () => {
    const owner: SandboxDirOwner = { hostPid: 200, hostname: "node-a", hostId: "node-a:200" };
    expect(isOwnerDead(owner, here, "unknown", dead)).toBe(true);
    expect(isOwnerDead(owner, here, "gone", dead)).toBe(true);
    expect(isOwnerDead(owner, here, "live", dead)).toBe(false);
    // A paused worker the monitor gave up on still holds its sandboxes: it closes them itself.
    expect(isOwnerDead(owner, here, "gone", alive)).toBe(false);
    // An owner file without a node (older files) is this node's.
    expect(isOwnerDead({ hostPid: 200 }, here, "unknown", dead)).toBe(true);
  });

  it("on another node: dead only when the store says its host is gone; a pid means nothing", () => {
    const owner: SandboxDirOwner = { hostPid: 200, hostname: "node-b", hostId: "node-b:200" };
    expect(isOwnerDead(owner, here, "gone", alive)).toBe(true);
    expect(isOwnerDead(owner, here, "unknown", dead)).toBe(false);
    expect(isOwnerDead(owner, here, "live", dead)).toBe(false);
    expect(isOwnerDead({ ...owner, hostPid: here.pid }, here, "unknown", dead)).toBe(false);
  });
});

describe("reaping a shared base directory", () => {
  let baseDir = "";
  afterEach(() => rmSync(baseDir, { recursive: true, force: true }));

  /** A sandbox directory as another process made it. */
  function dirOf(name: string, owner: SandboxDirOwner): string {
    const root = join(baseDir, name);
    mkdirSync(join(root, "workspace"), { recursive: true });
    writeFileSync(join(root, "workspace", "file.txt"), "x");
    writeFileSync(join(root, "owner.json"), JSON.stringify(owner));
    return root;
  }

  /** The pid of a process that has exited (and been reaped). */
  function deadPid(): number {
    return Number(spawnSync("/bin/sh", ["-c", "echo $$"], { encoding: "utf8" }).stdout.trim());
  }

  it("removes the directories of dead hosts on this node and of gone hosts elsewhere, and no others", async () => {
    baseDir = mkdtempSync(join(tmpdir(), "raas-reap-test-"));
    const pid = deadPid();
    const mine = join(baseDir, "sbx-mine");
    mkdirSync(mine);
    await writeOwnerFile(mine, "me");
    expect(readOwnerFile(mine)).toMatchObject({ hostPid: process.pid, hostname: hostname(), hostId: "me" });
    const lostElsewhere = dirOf("sbx-lost-b", {
      hostPid: process.pid,
      hostname: "other-node",
      hostId: "b:1",
    });
    const liveElsewhere = dirOf("sbx-live-c", { hostPid: 1, hostname: "other-node", hostId: "c:1" });
    const unknownElsewhere = dirOf("sbx-unknown", { hostPid: 1, hostname: "other-node", hostId: "x:1" });
    const deadHere = dirOf("sbx-dead-here", { hostPid: pid, hostname: hostname(), hostId: "d:1" });
    const deadHereLive = dirOf("sbx-dead-live", { hostPid: pid, hostname: hostname(), hostId: "c:1" });
    const aliveHere = dirOf("sbx-alive-here", { hostPid: process.ppid, hostname: hostname(), hostId: "b:1" });
    const noOwner = join(baseDir, "sbx-being-made");
    mkdirSync(noOwner);
    const notSandbox = dirOf("bundle", { hostPid: pid });

    const asked: string[] = [];
    const status = async (hostId: string): Promise<SandboxHostStatus> => {
      asked.push(hostId);
      if (hostId === "x:1") throw new Error("store down");
      return (
        ({ "b:1": "gone", "c:1": "live", "d:1": "gone" } as Record<string, SandboxHostStatus>)[hostId] ??
        "unknown"
      );
    };
    const removed = await reapDeadHostSandboxDirs(baseDir, "sbx-", status);
    expect(removed.sort()).toEqual([deadHere, lostElsewhere].sort());
    for (const root of [
      mine,
      liveElsewhere,
      unknownElsewhere,
      deadHereLive,
      aliveHere,
      noOwner,
      notSandbox,
    ]) {
      expect(existsSync(root), root).toBe(true);
    }
    // One question per host, never about this process's own directories.
    expect(asked.sort()).toEqual(["b:1", "c:1", "d:1", "x:1"]);
    expect(readFileSync(join(liveElsewhere, "workspace", "file.txt"), "utf8")).toBe("x");

    // Without the store (a runtime's start): this node's dead owners only.
    const deadAgain = dirOf("sbx-dead-again", { hostPid: pid, hostname: hostname(), hostId: "c:1" });
    expect(reapStaleSandboxDirs(baseDir, "sbx-").sort()).toEqual([deadAgain, deadHereLive].sort());
    expect(existsSync(lostElsewhere)).toBe(false);
    expect(existsSync(liveElsewhere)).toBe(true);
  });
});
