import { createHash } from "node:crypto";
import { existsSync, lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ManagedSandbox } from "../src/index";
import { PREPARE_TIMEOUT_MS, SANDBOX_TARGETS } from "./support/sandbox-targets";

/** Files of the root filesystem the attacks try to change, relative to its root. */
const GUARDED_FILES = ["etc/os-release", "usr/bin/env", "usr/bin/bash", "etc/passwd"];
/** Files the attacks try to create in the root filesystem. */
const PLANTED = [
  "usr/bin/planted",
  "etc/planted",
  "var/planted",
  "opt/planted",
  "planted",
  "usr/lib/planted",
];
/** Where a sandbox may write: each sandbox has its own. */
const PRIVATE_DIRS = ["/workspace", "/tmp", "/dev/shm"];

/** Mode, size, mtime and content digest of each guarded file, as the host sees it. */
function fingerprint(rootfs: string): Record<string, string> {
  return Object.fromEntries(
    GUARDED_FILES.map((path) => {
      const file = join(rootfs, path);
      const info = lstatSync(file);
      const digest = info.isFile() ? createHash("sha256").update(readFileSync(file)).digest("hex") : "";
      return [path, `${info.mode.toString(8)} ${info.size} ${info.mtimeMs} ${digest}`];
    }),
  );
}

async function sh(sandbox: ManagedSandbox, script: string): Promise<string> {
  const result = await sandbox.exec(["bash", "-c", script], { timeoutMs: 30_000 });
  return result.stdout;
}

/** Every way in: shell redirection, append, chmod, touch, rename, python via /proc/self/root. */
const ATTACK = [
  ...PLANTED.map((path) => `(echo x > /${path}) 2>/dev/null && echo wrote /${path}`),
  "(echo x >> /etc/os-release) 2>/dev/null && echo appended os-release",
  "chmod 4777 /usr/bin/env 2>/dev/null && echo chmod env",
  "touch -d 2001-01-01 /usr/bin/env 2>/dev/null && echo touched env",
  "cp /usr/bin/true /workspace/t && mv -f /workspace/t /usr/bin/bash 2>/dev/null && echo replaced bash",
  "ln /etc/passwd /workspace/passwd-link 2>/dev/null && (echo x >> /workspace/passwd-link) 2>/dev/null && echo linked passwd",
  "python3 -c \"import os; os.close(os.open('/proc/self/root/etc/planted', os.O_CREAT | os.O_WRONLY))\" 2>/dev/null && echo wrote via proc",
  "mount -o remount,rw / 2>/dev/null && echo remounted",
  ...PRIVATE_DIRS.map((dir) => `echo secret > ${dir}/mark && echo private ${dir}`),
  "echo done",
].join("\n");

describe.each(SANDBOX_TARGETS)("writes stay in their sandbox ($name)", (target) => {
  const fixture = target.createRuntime();
  let rootfs: { path: string; release: () => Promise<void> };

  beforeAll(async () => {
    await target.prepare();
    rootfs = await target.rootfs();
  }, PREPARE_TIMEOUT_MS);
  afterAll(async () => {
    await rootfs?.release();
    await fixture.dispose();
  });

  it("nothing a sandbox writes reaches the root filesystem or another sandbox on it", async () => {
    const before = fingerprint(rootfs.path);
    const [attacker, neighbour] = await Promise.all([
      fixture.runtime.create(target.spec()),
      fixture.runtime.create(target.spec()),
    ]);
    try {
      // Only its own private directories take its writes; the root filesystem refuses each attempt.
      const report = await sh(attacker, ATTACK);
      expect(report).toBe(`${PRIVATE_DIRS.map((dir) => `private ${dir}`).join("\n")}\ndone\n`);
      // The workspace keeps it for the sandbox's later calls (each exec has a fresh /tmp of its own).
      expect(await sh(attacker, "cat /workspace/mark")).toBe("secret\n");
      // The neighbour, open at the same time on the same root filesystem, sees none of it.
      const seen = await sh(
        neighbour,
        `for f in ${PRIVATE_DIRS.map((dir) => `${dir}/mark`).join(" ")} ${PLANTED.map((p) => `/${p}`).join(" ")}; do test -e $f && echo $f; done; echo checked`,
      );
      expect(seen).toBe("checked\n");
    } finally {
      await Promise.all([attacker.close(), neighbour.close()]);
    }
    // On the host: the guarded files are as they were and nothing was planted.
    expect(fingerprint(rootfs.path)).toEqual(before);
    for (const path of PLANTED) expect(existsSync(join(rootfs.path, path)), path).toBe(false);
    // A sandbox started afterwards on the same root filesystem starts clean too.
    const later = await fixture.runtime.create(target.spec());
    try {
      expect(await sh(later, `ls -A ${PRIVATE_DIRS.join(" ")} | grep -c mark; true`)).toBe("0\n");
    } finally {
      await later.close();
    }
  });
});
