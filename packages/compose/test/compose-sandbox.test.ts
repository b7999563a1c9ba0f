// The sandbox runtime a server or worker builds from its config: a warm pool fills on its own.
import { chmodSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Sandbox } from "@raas/engine";
import type { BubblewrapRuntime } from "@raas/sandbox";
import { buildTestImages } from "@raas/sandbox/testing";
import { afterAll, describe, expect, it } from "vitest";
import { composeSandboxRuntime } from "../src/compose-sandbox";
import { createRaasLogger } from "../src/logger";

const TIMEOUT_MS = 120_000;

describe("composeSandboxRuntime (bubblewrap)", () => {
  const baseDir = mkdtempSync(join(tmpdir(), "raas-compose-sandbox-"));
  afterAll(() => rmSync(baseDir, { recursive: true, force: true }));

  it(
    "with warmPoolSize, starts that many sandboxes ahead and hands one to the next create",
    async () => {
      const runtime = composeSandboxRuntime(
        { runtime: "bubblewrap", baseDir, warmPoolSize: 2 },
        createRaasLogger("silent"),
      ) as BubblewrapRuntime;
      let sandbox: Sandbox | undefined;
      try {
        const deadline = Date.now() + 90_000;
        while (runtime.openSandboxes.filter((open) => open.state === "ready").length < 2) {
          if (Date.now() > deadline) throw new Error("the warm pool did not fill within 90 s");
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const assigned: unknown[] = [];
        runtime.onEvent((event) => {
          if (event.type === "assigned") assigned.push(event.detail);
        });
        sandbox = await runtime.create({ jobId: "first" });
        expect(assigned).toEqual([{ fromPool: true }]);
        expect((await sandbox.exec(["bash", "-c", "echo ok"])).stdout).toBe("ok\n");
      } finally {
        await runtime.closeAll();
      }
      expect(sandbox?.state).toBe("closed");
      expect(readdirSync(baseDir).filter((name) => name.startsWith("sbx-"))).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it("without it, the pool is auto: creating the runtime starts no sandbox; 0 turns the pool off", async () => {
    const runtime = composeSandboxRuntime(
      { runtime: "bubblewrap", baseDir },
      createRaasLogger("silent"),
    ) as BubblewrapRuntime;
    await new Promise((resolve) => setImmediate(resolve));
    expect(runtime.openSandboxes).toHaveLength(0);
    // An auto pool, empty until a group forks.
    expect(runtime.warmPool).toEqual({ targetSize: 0, idle: 0 });
    await runtime.closeAll();
    const off = composeSandboxRuntime(
      { runtime: "bubblewrap", baseDir, warmPoolSize: 0 },
      createRaasLogger("silent"),
    ) as BubblewrapRuntime;
    expect(off.warmPool).toBeUndefined();
    await off.closeAll();
  });

  it("with imageCache, unpacks the images sandboxes name into that directory, once for many sandboxes", async () => {
    const { sif } = await buildTestImages();
    const dir = join(baseDir, "image-cache");
    // The sandboxes' uid must reach the unpacked root.
    chmodSync(baseDir, 0o755);
    const runtime = composeSandboxRuntime(
      { runtime: "bubblewrap", baseDir, warmPoolSize: 0, imageCache: { dir, maxBytes: 4 * 1024 ** 3 } },
      createRaasLogger("silent"),
    ) as BubblewrapRuntime;
    try {
      const [first, second] = await Promise.all([
        runtime.create({ jobId: "a", image: sif }),
        runtime.create({ jobId: "b", image: sif }),
      ]);
      for (const sandbox of [first, second]) {
        const version = await sandbox.exec(["python3", "--version"], { timeoutMs: 30_000 });
        expect(version.stdout).toMatch(/^Python 3\.13\./);
      }
      expect(readdirSync(join(dir, "entries")).filter((name) => name.startsWith("sif-"))).toHaveLength(1);
    } finally {
      await runtime.closeAll();
    }
  }, 600_000);
});
